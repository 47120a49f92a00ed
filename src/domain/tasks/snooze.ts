// Snoozing one task (spec v3 3, 5.8): personal to the member the key acts as, records no
// activity. Snoozing needs read access; reading or ending one's own snooze is never refused
// for lost visibility. The workspace key is refused here, after the task was found (5.10).
import type { Ctx } from '../../context';
import { iso } from '../../clock';
import { actsAsWorkspace, validationError } from '../../errors';
import { assertTaskReadable, refuseHeading } from './guard';
import type { TaskTarget } from './target';
import { deleteSnooze, putSnooze, snoozeUntil } from '../../rows/snoozes';

export function snoozeState(ctx: Ctx, taskId: number) {
  const until = snoozeUntil(ctx.db, ctx.actor.member.id, taskId);
  const active = until !== undefined && until > ctx.now();
  return { isSnoozed: active, snoozedUntil: active ? iso(until!) : undefined };
}

/** Snoozes are a person's (5.8): a workspace key is refused once the task is known to exist. */
function assertPerson(ctx: Ctx): void {
  if (ctx.actor.kind !== 'member') throw actsAsWorkspace();
}

export function getSnooze(ctx: Ctx, t: TaskTarget) {
  assertPerson(ctx);
  return snoozeState(ctx, t.task.id);
}

/** PUT .../snooze {snoozedUntil}: must be in the future. Answers {isSnoozed, snoozedUntil}. */
export function setSnooze(ctx: Ctx, t: TaskTarget, until: number) {
  assertPerson(ctx);
  assertTaskReadable(ctx, t);
  refuseHeading(t, 'A heading cannot be snoozed.');
  if (until <= ctx.now()) throw validationError('snoozedUntil must be in the future.', 'snoozedUntil');
  putSnooze(ctx.db, ctx.actor.member.id, t.task.id, until);
  return snoozeState(ctx, t.task.id);
}

/** DELETE .../snooze: ends the member's snooze; harmless when not snoozed. */
export function endSnooze(ctx: Ctx, t: TaskTarget) {
  assertPerson(ctx);
  deleteSnooze(ctx.db, ctx.actor.member.id, t.task.id);
  return snoozeState(ctx, t.task.id);
}
