// The activity feed (spec v3 4.3 `.../activity`, issue 5 item 8): who did what and when, for
// every write to a checklist or task. Snoozes record nothing (spec v3 3). Texts are written at
// change time; dates inside them use ctx.timeZone (4.1 rule 7).
import type { Ctx } from '../context';
import { insertActivity } from '../rows/activity';

export interface ActivityEntry {
  checklistId?: number | null;
  taskId?: number | null;
  /** Stable machine name, e.g. `task.completed`, `task.assigned`, `checklist.created` (docs/tasks.md). */
  action: string;
  /** Human sentence, e.g. "Ada Admin completed the task." */
  text: string;
  /** Details (JSON-able). */
  data?: Record<string, unknown>;
}

export function recordActivity(ctx: Ctx, e: ActivityEntry): void {
  insertActivity(ctx.db, {
    workspace_id: ctx.workspace.id,
    checklist_id: e.checklistId ?? null,
    task_id: e.taskId ?? null,
    member_id: ctx.actor.member.id,
    action: e.action,
    text: e.text,
    data: e.data ? JSON.stringify(e.data) : null,
    created_at: ctx.now(),
  });
}

/** Name of the acting person as written into activity texts. */
export function actorName(ctx: Ctx): string {
  const m = ctx.actor.member;
  return [m.first_name, m.last_name].filter(Boolean).join(' ') || m.email || 'Someone';
}

/** A date-time written for people, in ctx.timeZone, e.g. "2026-03-02 09:00 (Europe/Berlin)". */
export function formatInZone(ctx: Ctx, ms: number): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: ctx.timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(ms));
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')} ${get('hour')}:${get('minute')} (${ctx.timeZone})`;
}
