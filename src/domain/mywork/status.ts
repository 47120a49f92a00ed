// The eight statuses of a Tasks grid row (spec v3 2.6 work item, 4.6 list_my_work) and how a
// row's status is judged. One row has one status, first match wins (docs/tasks-grid.md):
// Complete, NotApplicable; then for an open task Snoozed (the member's own snooze), Halted
// (behind an incomplete stop task), Overdue (due before now), DueToday (due from now to the
// end of today in the member's zone), DueInFuture (due later), Incomplete (no due date).
import { DateTime } from 'luxon';
import { validationError } from '../../errors';

export const STATUSES = ['Incomplete', 'Complete', 'NotApplicable', 'DueToday', 'Overdue', 'Halted', 'DueInFuture', 'Snoozed'] as const;
export type GridStatus = (typeof STATUSES)[number];

/** The default of list_my_work and of a view without statuses: the four open ones (4.6). */
export const OPEN_STATUSES: GridStatus[] = ['Incomplete', 'DueInFuture', 'DueToday', 'Overdue'];

const norm = (s: string) => s.replace(/[\s_-]/g, '').toLowerCase();
const BY_NORM = new Map(STATUSES.map((s) => [norm(s), s]));

/** A status name as the API spells it, or undefined (case, spaces, hyphens, underscores ignored). */
export const statusName = (s: string): GridStatus | undefined => BY_NORM.get(norm(s));

/**
 * list_my_work's `status`: comma-separated names or `all` alone; default the four open ones.
 * Refused with field `status` when empty, unknown, or `all` combined with others.
 */
export function parseStatusArg(value: string | undefined): GridStatus[] {
  if (value === undefined) return [...OPEN_STATUSES];
  const parts = value.split(',').map((p) => p.trim());
  if (parts.some((p) => p === '')) throw validationError(`status must be a comma-separated list of ${STATUSES.join(', ')}, or all.`, 'status');
  if (parts.some((p) => p.toLowerCase() === 'all')) {
    if (parts.length > 1) throw validationError('status all cannot be combined with other statuses: send all alone, or name the statuses.', 'status');
    return [...STATUSES];
  }
  const out: GridStatus[] = [];
  for (const p of parts) {
    const s = statusName(p);
    if (!s) throw validationError(`status ${p} is not a Tasks grid status: use ${STATUSES.join(', ')}, or all.`, 'status');
    if (!out.includes(s)) out.push(s);
  }
  return out;
}

/** Statuses in the order of STATUSES, for bindings and stored views. */
export const canonicalStatuses = (list: GridStatus[]): GridStatus[] => STATUSES.filter((s) => list.includes(s));

/** The end of the member's day (the last millisecond of today in `zone`), against which DueToday and DueInFuture are judged. */
export function endOfDay(now: number, zone: string): number {
  // Every grid request asks, and luxon's zone arithmetic was a fifth of a demo-fixture page:
  // the day [start, end] of a zone is remembered, so the next instant inside it costs a compare.
  const day = days.get(zone);
  if (day && now >= day.start && now <= day.end) return day.end;
  const at = DateTime.fromMillis(now, { zone });
  const fresh = { start: at.startOf('day').toMillis(), end: at.endOf('day').toMillis() };
  if (days.size >= 1000) days.clear();
  days.set(zone, fresh);
  return fresh.end;
}

/** The last day computed per zone (zone names are few; bounded anyway). */
const days = new Map<string, { start: number; end: number }>();

export interface Judge {
  now: number;
  endOfDay: number;
}

export interface JudgedRow {
  status: string | null;
  is_heading: number;
  due_at: number | null;
  grid_halted: number;
  /** The member's snooze end, when one is in force. */
  snoozedUntil?: number;
}

export function judge(row: JudgedRow, j: Judge): GridStatus {
  if (row.status === 'Complete') return 'Complete';
  if (row.status === 'NotApplicable') return 'NotApplicable';
  if (row.snoozedUntil !== undefined && row.snoozedUntil > j.now) return 'Snoozed';
  if (row.grid_halted) return 'Halted';
  if (row.due_at === null) return 'Incomplete';
  if (row.due_at < j.now) return 'Overdue';
  if (row.due_at <= j.endOfDay) return 'DueToday';
  return 'DueInFuture';
}
