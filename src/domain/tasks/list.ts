// GET /v3/checklists/{checklistKey}/tasks (spec v3 4.3 "List checklist tasks"): every task in
// checklist order, unpaged; a status filter leaves headings out.
import { tasksOfChecklist } from '../../rows/tasks';
import type { Ctx } from '../../context';
import { validationError } from '../../errors';
import { assertCanRead } from '../access/checklists';
import { findChecklist } from '../checklist-lookup';
import { evaluateChecklist } from './evaluate';
import type { TaskRow } from '../../rows/tasks';
import { checklistDocument } from './target';
import { taskSummary } from './views';

const STATUSES: Record<string, TaskRow['status']> = { incomplete: 'Incomplete', complete: 'Complete', notapplicable: 'NotApplicable' };

/**
 * Comma-separated statuses; case, spaces, hyphens and underscores ignored; empty, unknown, or with an
 * empty item (`Incomplete,`) refused (field `status`): spec v3 4.3 refuses "an empty status=", and an
 * empty item names no status either.
 */
export function parseStatusFilter(raw: string | undefined): Set<string> | null {
  if (raw === undefined) return null;
  const parts = raw.split(',').map((p) => p.replace(/[\s_-]/g, '').toLowerCase());
  if (parts.every((p) => p === '')) throw validationError('status must not be empty: send Incomplete, Complete or NotApplicable, comma-separated, or leave status out.', 'status');
  const out = new Set<string>();
  for (const p of parts) {
    const s = STATUSES[p];
    if (!s) throw validationError(`status '${raw}' is not valid: use Incomplete, Complete or NotApplicable, comma-separated.`, 'status');
    out.add(s);
  }
  return out;
}

export function listChecklistTasks(ctx: Ctx, checklistKey: string, status: Set<string> | null) {
  const c = findChecklist(ctx, checklistKey);
  assertCanRead(ctx, c);
  const rows = tasksOfChecklist(ctx.db, c.id);
  const state = evaluateChecklist(ctx, c.id, checklistDocument(ctx, c), rows);
  const picked = status ? rows.filter((r) => !r.is_heading && status.has(r.status ?? 'Incomplete')) : rows;
  return { tasks: picked.map((r) => taskSummary(ctx, r, state)) };
}
