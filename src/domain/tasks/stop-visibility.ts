// Keeps tasks.stop_hidden (schema.sql version 7) true on each stop task a condition currently
// hides. The Tasks grid judges Halted from stored state (tasks.grid_halted, kept by triggers over
// millions of rows, docs/tasks-grid.md); conditions are evaluated here, once per write to a
// checklist whose version has a condition on a stop task, so the grid halts exactly as
// isCurrentlyHalted does (spec v3 2.4: a stop task a condition hides halts nothing) without
// evaluating anything per grid row.
import type { Ctx } from '../../context';
import type { TemplateDocument } from '../templates/document';
import { evaluateChecklist, type ChecklistState } from './evaluate';

/** Whether a condition of the version can hide one of its stop tasks (targets name tasks by ref or id). */
function conditionsReachStops(doc: TemplateDocument): boolean {
  if (!doc.conditions?.length) return false;
  const stops = new Set<string>();
  for (const t of doc.tasks) {
    if (t.isStop !== true || t.isHeading === true) continue;
    if (t.ref) stops.add(t.ref.toLowerCase());
    if (t.id) stops.add(t.id.toLowerCase());
  }
  return stops.size > 0 && doc.conditions.some((c) => (c.targets ?? []).some((x) => stops.has(String(x).toLowerCase())));
}

/**
 * Stores which stop tasks of the checklist a condition hides. Without a condition on a stop task
 * nothing can be hidden: nothing is read or written, unless the checklist just changed version
 * (`versionChanged`), when what an earlier version hid is cleared.
 */
export function syncStopVisibility(ctx: Pick<Ctx, 'db'>, checklistId: number, doc: TemplateDocument, state?: ChecklistState, versionChanged = false): void {
  if (!conditionsReachStops(doc)) {
    if (versionChanged) ctx.db.prepare('UPDATE tasks SET stop_hidden = 0 WHERE checklist_id = ? AND stop_hidden = 1').run(checklistId);
    return;
  }
  const stops = ctx.db
    .prepare<[number], { id: number; key: string; stop_hidden: number }>('SELECT id, key, stop_hidden FROM tasks WHERE checklist_id = ? AND is_stop = 1 AND is_heading = 0')
    .all(checklistId);
  if (stops.length === 0) return;
  const hidden = (state ?? evaluateChecklist(ctx, checklistId, doc)).hiddenTasks;
  const set = ctx.db.prepare('UPDATE tasks SET stop_hidden = ? WHERE id = ?');
  for (const s of stops) {
    const h = hidden.has(s.key.toLowerCase()) ? 1 : 0;
    if (h !== s.stop_hidden) set.run(h, s.id);
  }
}
