// list_my_work's `assignee` (spec v3 4.6): `me` (default; through groups too, EMULATOR.md),
// `all` (alone), `unassigned`, `TeamMember:<id>`, `Group:<id>`, comma-separated. Ids must
// name a member or group of the workspace. Widening never widens what the member may see:
// the visibility rule is applied separately (query.ts).
import type { Ctx } from '../../context';
import { validationError } from '../../errors';
import { groupInWorkspace, knownMember } from '../../rows/people';

export type AssigneeTerm = { kind: 'me' } | { kind: 'unassigned' } | { kind: 'member'; id: number } | { kind: 'group'; id: number };
/** `all` is no filter at all. */
export type AssigneeFilter = 'all' | AssigneeTerm[];

const FORMS = 'me, all, unassigned, TeamMember:<id>, Group:<id>, comma-separated';

export function parseAssigneeArg(ctx: Ctx, value: string | undefined): AssigneeFilter {
  if (value === undefined) return [{ kind: 'me' }];
  const parts = value.split(',').map((p) => p.trim());
  if (parts.some((p) => p === '')) throw validationError(`assignee must be one of ${FORMS}.`, 'assignee');
  if (parts.some((p) => p.toLowerCase() === 'all')) {
    if (parts.length > 1) throw validationError('assignee all cannot be combined with others: send all alone.', 'assignee');
    return 'all';
  }
  const out: AssigneeTerm[] = [];
  for (const p of parts) {
    const lower = p.toLowerCase();
    let term: AssigneeTerm;
    if (lower === 'me') term = { kind: 'me' };
    else if (lower === 'unassigned') term = { kind: 'unassigned' };
    else {
      const m = /^(teammember|group)\s*:\s*(.*)$/i.exec(p);
      if (!m) throw validationError(`assignee ${p} is not one of ${FORMS}.`, 'assignee');
      const idText = m[2].trim();
      if (!/^\d{1,10}$/.test(idText) || Number(idText) < 1 || Number(idText) > 2147483647) {
        throw validationError(`assignee ${p}: the id after the colon must be a whole number of 1 or more.`, 'assignee');
      }
      const id = Number(idText);
      if (m[1].toLowerCase() === 'group') {
        const g = groupInWorkspace(ctx.db, ctx.workspace.id, id);
        if (!g) throw validationError(`assignee ${p}: no group ${id} exists in this workspace.`, 'assignee');
        term = { kind: 'group', id };
      } else {
        if (!knownMember(ctx.db, ctx.workspace.id, id)) throw validationError(`assignee ${p}: no member ${id} exists in this workspace.`, 'assignee');
        term = id === ctx.actor.member.id ? { kind: 'me' } : { kind: 'member', id };
      }
    }
    if (!out.some((o) => JSON.stringify(o) === JSON.stringify(term))) out.push(term);
  }
  return out;
}

/** Whether the filter names only the acting member: their own tasks are visible to them by definition (5.4). */
export const onlyMe = (f: AssigneeFilter): boolean => f !== 'all' && f.length > 0 && f.every((t) => t.kind === 'me');
