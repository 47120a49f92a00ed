// Keeps tasks.stop_hidden (schema.sql version 7) true on each stop task a condition currently
// hides. The Tasks grid judges Halted from stored state (tasks.grid_halted, kept by triggers over
// millions of rows, docs/tasks-grid.md); conditions are evaluated here, once per write to a
// checklist whose version has a condition on a stop task, so the grid halts exactly as
// isCurrentlyHalted does (spec v3 2.4: a stop task a condition hides halts nothing) without
// evaluating anything per grid row.
import type { Ctx } from '../../context';
import type { TemplateDocument } from '../../rows/template-document';
import { evaluateChecklist, type ChecklistState } from './evaluate';
import { clearStopHidden, setStopHidden, stopTasksOf } from '../../rows/tasks';

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
    if (versionChanged) clearStopHidden(ctx.db, checklistId);
    return;
  }
  const stops = stopTasksOf(ctx.db, checklistId);
  if (stops.length === 0) return;
  const hidden = (state ?? evaluateChecklist(ctx, checklistId, doc)).hiddenTasks;
  for (const s of stops) {
    const h = hidden.has(s.key.toLowerCase()) ? 1 : 0;
    if (h !== s.stop_hidden) setStopHidden(ctx.db, s.id, h);
  }
}
