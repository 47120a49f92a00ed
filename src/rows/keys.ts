// API keys (`api_keys` rows; spec v3 5.2) and the members a key change involves: the
// finders and writers of the key control routes and the library's `apiKeys`.
import type { Db } from '../store/open';
import { insertOf } from '../store/columns';
import { apiKeysTable } from '../store/tables/people';
import type { KeyRow, MemberRow, WorkspaceRow } from './people';

export const allKeys = (db: Db): KeyRow[] => db.prepare<[], KeyRow>('SELECT * FROM api_keys ORDER BY id').all();

export const keysOfWorkspace = (db: Db, workspaceId: number): KeyRow[] => db.prepare<[number], KeyRow>('SELECT * FROM api_keys WHERE workspace_id = ? ORDER BY id').all(workspaceId);

export const keyById = (db: Db, id: number): KeyRow | undefined => db.prepare<[number], KeyRow>('SELECT * FROM api_keys WHERE id = ?').get(id);

/** Whether a key with this digest exists (key values are unique). */
export const keyHashTaken = (db: Db, digest: string): boolean => db.prepare<[string], { id: number }>('SELECT id FROM api_keys WHERE key_hash = ?').get(digest) !== undefined;

const KEY_INSERT = insertOf(apiKeysTable);

/** Inserts a key, not revoked; returns its id. */
export function insertKey(db: Db, k: Pick<KeyRow, 'workspace_id' | 'name' | 'key_hash' | 'member_id' | 'expires_on' | 'created_at'>): number {
  return Number(db.prepare(KEY_INSERT.sql).run(KEY_INSERT.values({ ...k, revoked_at: null })).lastInsertRowid);
}

export function updateKey(db: Db, id: number, k: Pick<KeyRow, 'name' | 'member_id' | 'expires_on'>): void {
  db.prepare('UPDATE api_keys SET name = ?, member_id = ?, expires_on = ? WHERE id = ?').run(k.name, k.member_id, k.expires_on, id);
}

export function revokeKey(db: Db, id: number, at: number): void {
  db.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ?').run(at, id);
}

/** A member of the workspace by id (the anonymous member too). */
export const memberOfWorkspace = (db: Db, id: number, workspaceId: number): MemberRow | undefined =>
  db.prepare<[number, number], MemberRow>('SELECT * FROM members WHERE id = ? AND workspace_id = ?').get(id, workspaceId);

/** The workspace's active Administrators (not the anonymous member), id order. */
export const activeAdministrators = (db: Db, workspaceId: number): MemberRow[] =>
  db.prepare<[number], MemberRow>("SELECT * FROM members WHERE workspace_id = ? AND role = 'Administrator' AND is_active = 1 AND is_removed = 0 AND is_anonymous = 0 ORDER BY id").all(workspaceId);

/**
 * The statements the key resolver keeps (prepared once per connection): the key, workspace and
 * member rows. What tells it that one of those rows may have changed are the counts of their tables
 * (store/watched-tables.ts): a write to a task leaves the resolved keys standing.
 */
export function keyResolutionStatements(db: Db) {
  return {
    byHash: db.prepare<[string], KeyRow>('SELECT * FROM api_keys WHERE key_hash = ?'),
    workspace: db.prepare<[number], WorkspaceRow>('SELECT * FROM workspaces WHERE id = ?'),
    member: db.prepare<[number], MemberRow>('SELECT * FROM members WHERE id = ?'),
  };
}
