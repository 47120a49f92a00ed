// The template list row (spec v3 2.5).
import type { Ctx } from '../../context';
import { iso } from '../../clock';
import { userRef } from '../users';

import type { TemplateRow, TemplateVersionRow } from '../../rows/templates';

import { templateUrl } from '../urls';
export { templateUrl };

export function templateListRow(ctx: Ctx, t: TemplateRow, v: TemplateVersionRow) {
  return {
    key: t.key,
    name: v.name,
    description: v.description ?? undefined,
    version: v.version,
    isArchived: t.is_archived === 1,
    url: templateUrl(ctx, t.key),
    createdDateTime: iso(v.created_at),
    createdBy: userRef(ctx.db, v.created_by),
  };
}

/** Latest version of every template of the workspace, archived ones only when asked. */
export function latestTemplates(ctx: Ctx, includeArchived: boolean) {
  const rows = ctx.db
    .prepare<[number], TemplateRow & { v_name: string; v_description: string | null; v_created_at: number; v_created_by: number | null; v_document: string }>(
      `SELECT t.*, v.name AS v_name, v.description AS v_description, v.created_at AS v_created_at, v.created_by AS v_created_by, v.document AS v_document
         FROM templates t JOIN template_versions v ON v.template_id = t.id AND v.version = t.latest_version
        WHERE t.workspace_id = ? ORDER BY v.name COLLATE NOCASE, t.id`,
    )
    .all(ctx.workspace.id);
  return rows
    .filter((r) => includeArchived || r.is_archived === 0)
    .map((r) =>
      templateListRow(ctx, r, {
        template_id: r.id,
        version: r.latest_version,
        name: r.v_name,
        description: r.v_description,
        document: r.v_document,
        created_at: r.v_created_at,
        created_by: r.v_created_by,
      }),
    );
}
