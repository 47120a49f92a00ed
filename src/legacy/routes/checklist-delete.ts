// Legacy share and delete (legacy spec 4.1): POST /api/checklist/share, DELETE /api/checklist,
// DELETE /api/checklist/delete-many. Over the v3 share and delete code (src/domain/checklists),
// so who may do it and what goes with a checklist (tags, attached tasks detached) are the same.
// Delete-many is one transaction: a refusal deletes nothing.
import type { Ctx } from '../../context';
import { isGuid } from '../../ids';
import { readableChecklists } from '../../domain/access/checklists';
import { deleteChecklist } from '../../domain/checklists/change';
import type { ChecklistRow } from '../../domain/checklist-lookup';
import { templateIdOf } from '../../domain/checklists/list';
import { setShare } from '../../domain/checklists/share';
import { defineLegacyRoute } from '../define';
import { bad, boolParam, bodyObject, intParam, prop, toInt } from '../params';
import { checklistOfId } from '../lookup';
import { checklistOfWorkspace, checklistsOfWorkspace } from '../../rows/checklists';

export function shareLegacy(ctx: Ctx, q: URLSearchParams) {
  const id = intParam(q, 'checklistId');
  const on = boolParam(q, 'isShared');
  const s = setShare(ctx, checklistOfId(ctx, id).key, on);
  return { isShared: s.isShared, shareUrl: s.shareUrl ?? null };
}

export function deleteLegacy(ctx: Ctx, q: URLSearchParams) {
  const row = checklistOfId(ctx, intParam(q, 'checklistId'));
  deleteChecklist(ctx, row.key);
  return { deletedChecklistIds: [row.id], notFoundChecklistIds: [] };
}

const DELETE_STATUSES: Record<string, ChecklistRow['status'][]> = {
  ALL: ['Scheduled', 'InProgress', 'Complete'],
  INPROGRESS: ['InProgress'],
  COMPLETE: ['Complete'],
  SCHEDULED: ['Scheduled'],
};
/** Most ids or template keys one delete-many call may name (designed: docs/legacy.md). */
export const MAX_DELETE_MANY = 1000;

function list(b: Record<string, unknown>, name: string): unknown[] | undefined {
  const v = prop(b, name);
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v)) throw bad(`${name} must be an array.`);
  if (v.length > MAX_DELETE_MANY) throw bad(`${name} may name at most ${MAX_DELETE_MANY} items.`);
  return v;
}

/**
 * Three ways, combinable (legacy spec 4.1): ids; template keys with checklistStatus; checklistStatus
 * alone. Named ids must each be deletable by the key (403 otherwise; unknown ids are reported, not
 * refused); the status selections take only the checklists the key may delete.
 */
export function deleteManyLegacy(ctx: Ctx, body: unknown) {
  const b = bodyObject(body);
  const ids = list(b, 'checklistIds')?.map((v, i) => toInt(v, `checklistIds[${i}]`));
  const templateKeys = list(b, 'templateKeys')?.map((v, i) => {
    if (!isGuid(v)) throw bad(`templateKeys[${i}] must be a GUID.`);
    return v;
  });
  const rawStatus = prop(b, 'checklistStatus');
  if (rawStatus !== undefined && rawStatus !== null && typeof rawStatus !== 'string') throw bad('checklistStatus must be a string.');
  const status = typeof rawStatus === 'string' && rawStatus.trim() !== '' ? rawStatus.trim().toUpperCase() : undefined;
  if (status !== undefined && !DELETE_STATUSES[status]) throw bad(`checklistStatus must be one of ${Object.keys(DELETE_STATUSES).join(', ')}.`);
  if (templateKeys?.length && status === undefined) throw bad('checklistStatus is required with templateKeys: it names which of those templates\' checklists to delete.');
  if (!ids?.length && status === undefined) throw bad('Name what to delete: checklistIds, templateKeys with checklistStatus, or checklistStatus alone.');

  const chosen = new Map<number, ChecklistRow>();
  const notFound: number[] = [];
  for (const id of ids ?? []) {
    const row = checklistOfWorkspace(ctx.db, ctx.workspace.id, id);
    if (row) chosen.set(row.id, row);
    else if (!notFound.includes(id)) notFound.push(id);
  }
  if (status !== undefined) {
    const statuses = DELETE_STATUSES[status];
    const templateIds = templateKeys?.length ? templateKeys.map((k) => templateIdOf(ctx, k)) : undefined;
    const rows = checklistsOfWorkspace(ctx.db, ctx.workspace.id).filter((r) => statuses.includes(r.status) && (!templateIds || templateIds.includes(r.template_id)));
    const readable = readableChecklists(ctx);
    for (const r of rows) {
      const mayDelete = ctx.actor.kind === 'workspace' || ctx.actor.isAdmin || (r.created_by === ctx.actor.member.id && readable(r));
      if (mayDelete) chosen.set(r.id, r);
    }
  }
  const deleted = [...chosen.values()].sort((a, b) => a.id - b.id);
  for (const r of deleted) deleteChecklist(ctx, r.key); // refuses (403) for the workspace key and for others' checklists
  return { deletedChecklistIds: deleted.map((r) => r.id), notFoundChecklistIds: notFound };
}

export const checklistDeleteLegacyRoutes = [
  defineLegacyRoute({ method: 'POST', path: '/api/checklist/share', handler: (ctx, r) => shareLegacy(ctx, r.query) }),
  defineLegacyRoute({ method: 'DELETE', path: '/api/checklist', handler: (ctx, r) => deleteLegacy(ctx, r.query) }),
  defineLegacyRoute({ method: 'DELETE', path: '/api/checklist/delete-many', handler: (ctx, r) => deleteManyLegacy(ctx, r.body) }),
];
