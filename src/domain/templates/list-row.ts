// The template list row (spec v3 2.5).
import type { Ctx } from '../../context';
import { iso } from '../../clock';
import { userRef } from '../users';

import { latestTemplateRows, type TemplateRow, type TemplateVersionRow } from '../../rows/templates';

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
  const rows = latestTemplateRows(ctx.db, ctx.workspace.id);
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
