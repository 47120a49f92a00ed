// Legacy team lookups (legacy spec 2, 4.4): active members and groups, filtered by
// nameContains (case-insensitive, on a member's full name or e-mail, a group's name);
// an empty result is 404 (legacy spec 7). The anonymous member is never listed.
import type { Ctx } from '../../context';
import { compareText } from '../../domain/paging';
import { groupMembers, listableMembers } from '../../domain/people/members';
import { displayName, fullName, groupsOfWorkspace, type GroupRow, type MemberRow } from '../../rows/people';
import { defineLegacyRoute, legacyError } from '../define';
import { param } from '../params';
import { ASSIGNEE_TYPE } from '../shapes';

const nameOf = (m: MemberRow) => fullName(m) ?? displayName(m);

function members(ctx: Ctx, q: URLSearchParams): MemberRow[] {
  const needle = param(q, 'nameContains')?.toLowerCase();
  return listableMembers(ctx, false)
    .filter((m) => !needle || [nameOf(m), m.email].some((s) => s && s.toLowerCase().includes(needle)))
    .sort((a, b) => compareText(nameOf(a), nameOf(b)) || a.id - b.id);
}

function groups(ctx: Ctx, q: URLSearchParams): GroupRow[] {
  const needle = param(q, 'nameContains')?.toLowerCase();
  return groupsOfWorkspace(ctx.db, ctx.workspace.id)
    .filter((g) => !needle || g.name.toLowerCase().includes(needle))
    .sort((a, b) => compareText(a.name, b.name) || a.id - b.id);
}

const person = (m: MemberRow) => ({ id: m.id, fullName: nameOf(m) });

export function membersAndGroupsLegacy(ctx: Ctx, q: URLSearchParams) {
  const ms = members(ctx, q);
  const gs = groups(ctx, q);
  if (ms.length === 0 && gs.length === 0) throw legacyError(404, 'No members or groups match.');
  return {
    members: ms.map(person),
    groups: gs.map((g) => ({ id: g.id, name: g.name, members: groupMembers(ctx, g.id).filter((m) => m.is_active === 1).map(person) })),
  };
}

export function membersLegacy(ctx: Ctx, q: URLSearchParams) {
  const ms = members(ctx, q);
  if (ms.length === 0) throw legacyError(404, 'No members match.');
  return ms.map((m) => ({ id: m.id, assigneeId: m.id, assigneeName: nameOf(m), assigneeType: ASSIGNEE_TYPE.TeamMember }));
}

export function groupsLegacy(ctx: Ctx, q: URLSearchParams) {
  const gs = groups(ctx, q);
  if (gs.length === 0) throw legacyError(404, 'No groups match.');
  return gs.map((g) => ({ id: g.id, assigneeId: g.id, assigneeName: g.name, assigneeType: ASSIGNEE_TYPE.Group }));
}

export const teamLegacyRoutes = [
  defineLegacyRoute({ method: 'GET', path: '/api/team/members-and-groups', handler: (ctx, r) => membersAndGroupsLegacy(ctx, r.query) }),
  defineLegacyRoute({ method: 'GET', path: '/api/team/members', handler: (ctx, r) => membersLegacy(ctx, r.query) }),
  defineLegacyRoute({ method: 'GET', path: '/api/team/groups', handler: (ctx, r) => groupsLegacy(ctx, r.query) }),
];
