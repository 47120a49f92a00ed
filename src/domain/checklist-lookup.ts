// Finding a checklist of the acting workspace and the checklist reference of spec v3 2.4.
// Lookups are scoped to ctx.workspace.id: another workspace's checklist is 404, never 403 (5.10).
import type { Ctx } from '../context';
import { iso } from '../clock';
import { notFound } from '../errors';
import { declareMemo, memoOn } from '../store/memo';
import { checklistUrl, templateUrl } from './urls';
import { checklistById as checklistRowById, checklistByKey, templateVersionOfChecklist, type ChecklistRow } from '../rows/checklists';

export type { ChecklistRow };

// Every checklist and task route looks its checklist up by key first (the whole row: ~3.5 us
// a request); remembered until a checklist row may have changed (store/memo.ts), so a task's status write leaves it standing. Shared: callers only
// read the row.
const BY_KEY = declareMemo({ name: 'checklist by key', reads: ['checklists'] });

/** The checklist `key` of the acting workspace, or 404 CHECKLIST_NOT_FOUND. The key is a GUID (checked by the op schema). */
export function findChecklist(ctx: Ctx, key: string): ChecklistRow {
  const row = memoOn<string, ChecklistRow | undefined>(ctx.db, BY_KEY).get(`${ctx.workspace.id}\n${key}`, () => checklistByKey(ctx.db, ctx.workspace.id, key));
  if (!row) throw notFound('CHECKLIST_NOT_FOUND', `No checklist with key ${key} exists in this workspace.`);
  return row;
}

/** Checklist by row id (for rows already known to belong to the workspace). */
export function checklistById(ctx: Pick<Ctx, 'db'>, id: number): ChecklistRow | undefined {
  return checklistRowById(ctx.db, id);
}

export interface TemplateRefOfChecklist {
  key: string;
  name: string;
  url: string;
  version: number;
  description?: string;
  createdDateTime?: string;
}

/** The template object of a checklist reference: the version the checklist runs (2.4). */
export function checklistTemplateRef(ctx: Ctx, row: Pick<ChecklistRow, 'template_id' | 'template_version'>): TemplateRefOfChecklist {
  const t = templateVersionOfChecklist(ctx.db, row.template_id, row.template_version)!;
  return templateRefOf(ctx, t, row.template_version);
}

/** The template object of a checklist reference from its version's row (2.4). */
export function templateRefOf(ctx: Ctx, t: { key: string; name: string | null; description: string | null; created_at: number | null }, version: number): TemplateRefOfChecklist {
  return {
    key: t.key,
    name: t.name ?? '',
    url: templateUrl(ctx, t.key),
    version,
    description: t.description || undefined,
    createdDateTime: t.created_at == null ? undefined : iso(t.created_at),
  };
}

/** Checklist reference (spec v3 2.4): key, name, url, template. */
export function checklistReference(ctx: Ctx, row: ChecklistRow) {
  return {
    key: row.key,
    name: row.name,
    url: checklistUrl(ctx, row.key),
    template: checklistTemplateRef(ctx, row),
  };
}
