// Row shapes as stored (schema.sql). Only the store and the domain see these.
import type { Db } from '../store/open';
import type { RowOf } from '../store/columns';
import type { apiKeysTable, groupsTable, membersTable, workspacesTable } from '../store/tables/people';

/** A workspace row as stored (store/tables/people.ts). */
export type WorkspaceRow = RowOf<typeof workspacesTable.columns>;

/** A member row as stored. */
export type MemberRow = RowOf<typeof membersTable.columns>;

/** A group row as stored. */
export type GroupRow = RowOf<typeof groupsTable.columns>;

/** An API key row as stored. */
export type KeyRow = RowOf<typeof apiKeysTable.columns>;

/** "First Last"; absent when there is no first name (spec v3 2.4 assignee). */
export function fullName(m: Pick<MemberRow, 'first_name' | 'last_name'>): string | undefined {
  if (!m.first_name) return undefined;
  return m.last_name ? `${m.first_name} ${m.last_name}` : m.first_name;
}

/** A name to show in text and user references, falling back to the surname. */
export function displayName(m: Pick<MemberRow, 'first_name' | 'last_name' | 'email'>): string {
  return [m.first_name, m.last_name].filter(Boolean).join(' ') || m.email || 'Unknown';
}

/** A member or group named in a document or request (spec v3 4.4 rule 2: named, not numbered). */
export interface AssigneeRef {
  type: 'TeamMember' | 'Group';
  id: number;
}

/** Active members (by full name or email) and groups (by name) a name matches, groups first. */
export function findByName(db: Db, workspaceId: number, name: string): AssigneeRef[] {
  const members = db
    .prepare<[number, string, string], { id: number }>(
      `SELECT id FROM members WHERE workspace_id = ? AND is_active = 1 AND is_removed = 0 AND is_anonymous = 0
         AND (lower(trim(coalesce(first_name,'') || ' ' || coalesce(last_name,''))) = lower(?) OR lower(email) = lower(?))`,
    )
    .all(workspaceId, name.trim(), name.trim());
  const groups = db.prepare<[number, string], { id: number }>('SELECT id FROM groups WHERE workspace_id = ? AND lower(name) = lower(?)').all(workspaceId, name.trim());
  return [...groups.map((g) => ({ type: 'Group' as const, id: g.id })), ...members.map((m) => ({ type: 'TeamMember' as const, id: m.id }))];
}

/** A member by row id (any workspace: callers hold ids already scoped to theirs). */
export function memberById(db: Db, id: number): MemberRow | undefined {
  return db.prepare<[number], MemberRow>('SELECT * FROM members WHERE id = ?').get(id);
}

/** A workspace by row id. */
export function workspaceById(db: Db, id: number): WorkspaceRow | undefined {
  return db.prepare<[number], WorkspaceRow>('SELECT * FROM workspaces WHERE id = ?').get(id);
}

/** A workspace by its key (the teamId), in any case. */
export function workspaceByKey(db: Db, key: string): WorkspaceRow | undefined {
  return db.prepare<[string], WorkspaceRow>('SELECT * FROM workspaces WHERE lower(key) = lower(?)').get(key);
}

/** Whether the database holds any workspace (a seeded database). */
export const hasWorkspaces = (db: Db): boolean => db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM workspaces').get()!.n > 0;

/** Members a workspace lists: not anonymous, not removed (active or not). */
export const membersOfWorkspace = (db: Db, workspaceId: number): MemberRow[] =>
  db.prepare<[number], MemberRow>('SELECT * FROM members WHERE workspace_id = ? AND is_anonymous = 0 AND is_removed = 0').all(workspaceId);

/** A listed member (not anonymous, not removed) of the workspace. */
export const listedMember = (db: Db, workspaceId: number, id: number): MemberRow | undefined =>
  db.prepare<[number, number], MemberRow>('SELECT * FROM members WHERE id = ? AND workspace_id = ? AND is_anonymous = 0 AND is_removed = 0').get(id, workspaceId);

/** Whether a member (anonymous included, not removed) belongs to the workspace. */
export const memberInWorkspace = (db: Db, workspaceId: number, id: number): boolean =>
  db.prepare<[number, number], { id: number }>('SELECT id FROM members WHERE id = ? AND workspace_id = ? AND is_removed = 0').get(id, workspaceId) !== undefined;

export const groupsOfWorkspace = (db: Db, workspaceId: number): GroupRow[] => db.prepare<[number], GroupRow>('SELECT * FROM groups WHERE workspace_id = ?').all(workspaceId);

/** A group by row id (any workspace: callers hold ids already scoped to theirs). */
export const groupById = (db: Db, id: number): GroupRow | undefined => db.prepare<[number], GroupRow>('SELECT * FROM groups WHERE id = ?').get(id);

export const groupInWorkspace = (db: Db, workspaceId: number, id: number): GroupRow | undefined =>
  db.prepare<[number, number], GroupRow>('SELECT * FROM groups WHERE id = ? AND workspace_id = ?').get(id, workspaceId);

/** A group's members, not removed nor anonymous (any order). */
export const membersOfGroup = (db: Db, groupId: number): MemberRow[] =>
  db.prepare<[number], MemberRow>('SELECT m.* FROM group_members gm JOIN members m ON m.id = gm.member_id WHERE gm.group_id = ? AND m.is_removed = 0 AND m.is_anonymous = 0').all(groupId);

/** A member of the workspace, whatever its state (anonymous, inactive and removed included). */
export const workspaceMember = (db: Db, workspaceId: number, id: number): MemberRow | undefined =>
  db.prepare<[number, number], MemberRow>('SELECT * FROM members WHERE id = ? AND workspace_id = ?').get(id, workspaceId);

/** Whether the member belongs to a group of the workspace named `lowerName` (lower case). */
export const inGroupNamed = (db: Db, workspaceId: number, memberId: number, lowerName: string): boolean =>
  db
    .prepare<[number, number, string], { n: number }>(
      'SELECT COUNT(*) AS n FROM group_members gm JOIN groups g ON g.id = gm.group_id WHERE gm.member_id = ? AND g.workspace_id = ? AND lower(g.name) = ?',
    )
    .get(memberId, workspaceId, lowerName)!.n > 0;

/** Whether a member of the workspace can be named as an assignee: active, not removed, not anonymous, a person's role. */
export const nameableMember = (db: Db, workspaceId: number, id: number): boolean =>
  db
    .prepare<[number, number], { one: number }>(
      "SELECT 1 AS one FROM members WHERE id = ? AND workspace_id = ? AND is_active = 1 AND is_removed = 0 AND is_anonymous = 0 AND role IN ('Administrator','Member','Guest')",
    )
    .get(id, workspaceId) !== undefined;

/** Whether a non-anonymous member (removed included) belongs to the workspace. */
export const knownMember = (db: Db, workspaceId: number, id: number): boolean =>
  db.prepare<[number, number], { one: number }>('SELECT 1 AS one FROM members WHERE id = ? AND workspace_id = ? AND is_anonymous = 0').get(id, workspaceId) !== undefined;

/** A member's first and last name joined by a space, trimmed ('' when both are empty). */
export const memberNameText = (db: Db, id: number): string | undefined =>
  db.prepare<[number], { n: string }>("SELECT trim(coalesce(first_name,'') || ' ' || coalesce(last_name,'')) AS n FROM members WHERE id = ?").get(id)?.n;

/** The workspace's oldest active Administrator (a person, not removed), if any. */
export const firstAdministratorId = (db: Db, workspaceId: number): number | undefined =>
  db
    .prepare<[number], { id: number }>(
      "SELECT id FROM members WHERE workspace_id = ? AND role = 'Administrator' AND is_active = 1 AND is_removed = 0 AND is_anonymous = 0 ORDER BY id LIMIT 1",
    )
    .get(workspaceId)?.id;

/** The ids of the groups a member belongs to. */
export const groupIdsOfMember = (db: Db, memberId: number): number[] =>
  db.prepare<[number], { group_id: number }>('SELECT group_id FROM group_members WHERE member_id = ?').all(memberId).map((g) => g.group_id);
