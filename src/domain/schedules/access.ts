// Who may read and change schedules (spec v3 5.4, 5.5, 5.9; docs/schedules.md "Permissions").
// Rights live in members.rights like Checklist.Creator; Administrators hold every right and
// the workspace key passes every schedule check (5.9), as for the other rights.
import type { Ctx } from '../../context';
import { forbidden } from '../../errors';
import { canRunTemplate } from '../access/checklists';

const passes = (ctx: Ctx) => ctx.actor.kind === 'workspace' || ctx.actor.isAdmin;

/** 5.4: schedules need Schedule.Viewer or Schedule.Creator. */
export function assertCanViewSchedules(ctx: Ctx): void {
  if (passes(ctx) || ctx.actor.rights.has('Schedule.Viewer') || ctx.actor.rights.has('Schedule.Creator')) return;
  throw forbidden('You may not see schedules: you have neither the Schedule.Viewer nor the Schedule.Creator right. An Administrator can give you one.');
}

/** 5.5: create, change, delete a schedule, skip a run, create its checklist now: Schedule.Creator. */
export function assertScheduleCreator(ctx: Ctx, what: string): void {
  if (passes(ctx) || ctx.actor.rights.has('Schedule.Creator')) return;
  throw forbidden(`You may not ${what}: you do not have the Schedule.Creator right. An Administrator can give it to you.`);
}

/** 5.5: "and run permission on its template to create or act on a run". */
export function assertCanRunFor(ctx: Ctx, templateId: number, what: string): void {
  if (canRunTemplate(ctx, templateId)) return;
  throw forbidden(
    `You may not ${what}: no Run and View or Run and View Assigned permission on the schedule's template names you, a group you are in, or all users. ` +
      'An Administrator can give you a Run and View permission on the template.',
  );
}
