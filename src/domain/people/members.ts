// Members and groups (spec v3 2.6). The anonymous member is never listed.
import { notFound } from '../../errors';
import type { Ctx } from '../../context';
import { compareText, cursorScope, paginate, parseSort } from '../paging';
import { fullName, groupInWorkspace, groupsOfWorkspace, listedMember, membersOfGroup, membersOfWorkspace, type GroupRow, type MemberRow } from '../../rows/people';

export function memberView(m: MemberRow) {
  return {
    id: m.id,
    type: 'TeamMember',
    // Spec v3 2.6 lists `name` on every Member; 2.4's omission ("absent for a member recorded with a
    // surname but no first name") is the Assignee's. A member with only a surname is named by it.
    name: fullName(m) ?? m.last_name ?? undefined,
    firstName: m.first_name ?? undefined,
    lastName: m.last_name ?? undefined,
    email: m.email ?? undefined,
    role: m.role,
    isActive: m.is_active === 1,
  };
}

export const groupView = (g: GroupRow) => ({ id: g.id, type: 'Group', name: g.name });

const sortName = (m: MemberRow) => [m.first_name, m.last_name].filter(Boolean).join(' ') || m.email || '';

export function listableMembers(ctx: Ctx, includeInactive: boolean): MemberRow[] {
  return membersOfWorkspace(ctx.db, ctx.workspace.id).filter((m) => includeInactive || m.is_active === 1);
}

export interface ListMembersInput {
  search?: string;
  role?: 'Administrator' | 'Member' | 'Guest';
  includeInactive?: boolean;
  sort?: string;
  after?: string;
  pageSize?: number;
}

export function listMembers(ctx: Ctx, input: ListMembersInput) {
  const sort = parseSort(input.sort, ['name', 'email'], { field: 'name', dir: 'asc' });
  const q = input.search?.trim().toLowerCase();
  let rows = listableMembers(ctx, input.includeInactive === true);
  if (input.role) rows = rows.filter((m) => m.role === input.role);
  if (q) {
    rows = rows.filter((m) =>
      [fullName(m), m.first_name, m.last_name, m.email].some((s) => s && s.toLowerCase().includes(q)),
    );
  }
  const key = sort.field === 'email' ? (m: MemberRow) => m.email ?? '' : sortName;
  rows.sort((a, b) => (sort.dir === 'asc' ? 1 : -1) * (compareText(key(a), key(b)) || a.id - b.id));
  const pageSize = input.pageSize ?? 50;
  const binding = ['members', cursorScope(ctx), q ?? '', input.role ?? '', input.includeInactive === true, sort, pageSize];
  return paginate(rows, pageSize, input.after, binding, memberView);
}

export function findMember(ctx: Ctx, id: number): MemberRow | undefined {
  return listedMember(ctx.db, ctx.workspace.id, id);
}

export function getMember(ctx: Ctx, id: number) {
  const m = findMember(ctx, id);
  if (!m) throw notFound('MEMBER_NOT_FOUND', `No member with id ${id} in this workspace.`);
  return memberView(m);
}

export function listGroups(ctx: Ctx, input: { search?: string; sort?: string; after?: string; pageSize?: number }) {
  const sort = parseSort(input.sort, ['name'], { field: 'name', dir: 'asc' });
  const q = input.search?.trim().toLowerCase();
  let rows = groupsOfWorkspace(ctx.db, ctx.workspace.id);
  if (q) rows = rows.filter((g) => g.name.toLowerCase().includes(q));
  rows.sort((a, b) => (sort.dir === 'asc' ? 1 : -1) * (compareText(a.name, b.name) || a.id - b.id));
  const pageSize = input.pageSize ?? 50;
  return paginate(rows, pageSize, input.after, ['groups', cursorScope(ctx), q ?? '', sort, pageSize], groupView);
}

export function groupMembers(ctx: Ctx, groupId: number): MemberRow[] {
  return membersOfGroup(ctx.db, groupId).sort((a, b) => compareText(sortName(a), sortName(b)) || a.id - b.id);
}

export function getGroup(ctx: Ctx, id: number) {
  const g = groupInWorkspace(ctx.db, ctx.workspace.id, id);
  if (!g) throw notFound('GROUP_NOT_FOUND', `No group with id ${id} in this workspace.`);
  return { ...groupView(g), members: groupMembers(ctx, g.id).map(memberView) };
}
