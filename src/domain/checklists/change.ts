// Reading and changing one checklist: GET/PATCH/DELETE /v3/checklists/{key}, archive and
// unarchive (spec v3 4.7, 3, 4.1 rule 8, 5.4, 5.6, 5.9, 5.10). Who may do what where the spec
// is silent is recorded in docs/checklists.md.
import { checklistById, deleteChecklist as deleteChecklistRow, setChecklistArchived, setChecklistDue, setChecklistName } from '../../rows/checklists';
import type { Ctx } from '../../context';
import { forbidden, validationError } from '../../errors';
import { actorName, formatInZone, recordActivity } from '../activity';
import { assertCanRead, assertCanRun } from '../access/checklists';
import { removeTag } from '../tags/apply';
import { findChecklist, type ChecklistRow } from '../checklist-lookup';
import { checklistView } from './view';
import { tagsOnChecklistAndTasks } from '../../rows/tags';

const reload = (ctx: Ctx, row: ChecklistRow) => checklistById(ctx.db, row.id)!;

export function getChecklist(ctx: Ctx, key: string) {
  const row = findChecklist(ctx, key);
  assertCanRead(ctx, row);
  return checklistView(ctx, row);
}

export interface PatchChecklistInput {
  checklistKey: string;
  name?: string | null;
  dueDateTime?: number | null;
}

/** PATCH (4.1 rule 8): a value sets, null clears where clearable (dueDateTime), omitted is unchanged. */
export function patchChecklist(ctx: Ctx, input: PatchChecklistInput) {
  if (input.name === null) throw validationError('name cannot be cleared: a checklist always has a name.', 'name');
  const row = findChecklist(ctx, input.checklistKey);
  assertCanRun(ctx, row);
  if (input.name !== undefined) {
    const name = input.name.trim();
    if (name !== row.name) {
      setChecklistName(ctx.db, row.id, name);
      recordActivity(ctx, { checklistId: row.id, action: 'checklist.renamed', text: `${actorName(ctx)} renamed the checklist from "${row.name}" to "${name}".`, data: { from: row.name, to: name } });
    }
  }
  if (input.dueDateTime !== undefined && input.dueDateTime !== row.due_at) {
    setChecklistDue(ctx.db, row.id, input.dueDateTime);
    recordActivity(ctx, {
      checklistId: row.id,
      action: input.dueDateTime === null ? 'checklist.dueDateCleared' : 'checklist.dueDateSet',
      text:
        input.dueDateTime === null
          ? `${actorName(ctx)} cleared the checklist's due date.`
          : `${actorName(ctx)} set the checklist's due date to ${formatInZone(ctx, input.dueDateTime)}.`,
      data: { dueDateTime: input.dueDateTime === null ? null : new Date(input.dueDateTime).toISOString() },
    });
  }
  return checklistView(ctx, reload(ctx, row));
}

/**
 * DELETE /v3/checklists/{key}: permanent. Administrators, and the member who created the checklist
 * while they can still see it. The workspace key acts through its anonymous member (5.9), who is
 * neither, so it is refused. Attached standalone tasks survive, detached.
 */
export function deleteChecklist(ctx: Ctx, key: string): void {
  const row = findChecklist(ctx, key);
  if (ctx.actor.kind === 'workspace') {
    throw forbidden(
      'This API key acts as the workspace, through its anonymous member, and may not delete checklists: only Administrators and the member who created a checklist may. ' +
        'Use a key that acts as an Administrator, or archive the checklist instead.',
    );
  }
  assertCanRead(ctx, row);
  if (!ctx.actor.isAdmin && row.created_by !== ctx.actor.member.id) {
    throw forbidden('Only Administrators and the member who created a checklist may delete it. An Administrator can delete it, or archive it.');
  }
  // Tags hang off rows by id without a foreign key: take them off so a tag goes with its last carrier.
  const tagged = tagsOnChecklistAndTasks(ctx.db, row.id);
  for (const t of tagged) removeTag(ctx.db, ctx.workspace.id, t.target_type, t.target_id, t.name);
  deleteChecklistRow(ctx.db, row.id);
}

function assertAdministrator(ctx: Ctx, what: string): void {
  if (ctx.actor.kind === 'workspace') {
    throw forbidden(
      `Only Administrators may ${what} a checklist, and this API key acts as the workspace through its anonymous member, who is not an Administrator. Use a key that acts as an Administrator.`,
    );
  }
  if (!ctx.actor.isAdmin) throw forbidden(`Only Administrators may ${what} a checklist. An Administrator can do it for you, or make you an Administrator.`);
}

/** POST (archive) and DELETE (unarchive) /v3/checklists/{key}/archive: Administrators only (5.6), answering the checklist. */
export function setArchived(ctx: Ctx, key: string, archived: boolean) {
  const row = findChecklist(ctx, key);
  assertAdministrator(ctx, archived ? 'archive' : 'unarchive');
  if ((row.is_archived === 1) !== archived) {
    setChecklistArchived(ctx.db, row.id, archived);
    recordActivity(ctx, {
      checklistId: row.id,
      action: archived ? 'checklist.archived' : 'checklist.unarchived',
      text: `${actorName(ctx)} ${archived ? 'archived' : 'unarchived'} the checklist.`,
    });
  }
  return checklistView(ctx, reload(ctx, row));
}
