// OAuth grants (one sign-in each) and their codes, access and refresh tokens (docs/oauth.md):
// the rows of `oauth_grants` and `oauth_tokens`, read and written by src/oauth alone. Tokens
// are found by their SHA-256 digest; the token itself is never stored.
import type { Db } from '../store/open';

export type ActsAs = 'member' | 'workspace' | 'key';
export type TokenKind = 'code' | 'access' | 'refresh';

export interface OAuthGrantRow {
  id: number;
  client_id: number;
  workspace_id: number;
  acts_as: ActsAs;
  member_id: number | null;
  key_id: number | null;
  resource: string;
  created_at: number;
  revoked_at: number | null;
}

export interface OAuthTokenRow {
  id: number;
  grant_id: number;
  kind: TokenKind;
  token_hash: string;
  expires_at: number;
  used_at: number | null;
  revoked_at: number | null;
  code_challenge: string | null;
  redirect_uri: string | null;
  created_at: number;
}

/** A token with its grant, as one lookup answers it. */
export type TokenWithGrant = OAuthTokenRow & { grant: OAuthGrantRow };

export function insertGrant(db: Db, g: Omit<OAuthGrantRow, 'id' | 'revoked_at'>): number {
  const { lastInsertRowid } = db
    .prepare('INSERT INTO oauth_grants (client_id, workspace_id, acts_as, member_id, key_id, resource, created_at, revoked_at) VALUES (?, ?, ?, ?, ?, ?, ?, NULL)')
    .run(g.client_id, g.workspace_id, g.acts_as, g.member_id, g.key_id, g.resource, g.created_at);
  return Number(lastInsertRowid);
}

export function insertToken(db: Db, t: Omit<OAuthTokenRow, 'id' | 'used_at' | 'revoked_at'>): number {
  const { lastInsertRowid } = db
    .prepare('INSERT INTO oauth_tokens (grant_id, kind, token_hash, expires_at, used_at, revoked_at, code_challenge, redirect_uri, created_at) VALUES (?, ?, ?, ?, NULL, NULL, ?, ?, ?)')
    .run(t.grant_id, t.kind, t.token_hash, t.expires_at, t.code_challenge, t.redirect_uri, t.created_at);
  return Number(lastInsertRowid);
}

const GRANT_COLUMNS = ['id', 'client_id', 'workspace_id', 'acts_as', 'member_id', 'key_id', 'resource', 'created_at', 'revoked_at'] as const;

/** The token with this digest and its grant, whatever its state (the caller judges expiry, use and revocation). */
export function tokenByHash(db: Db, digest: string): TokenWithGrant | undefined {
  const row = db
    .prepare<[string], Record<string, unknown>>(
      `SELECT t.*, ${GRANT_COLUMNS.map((c) => `g.${c} AS g_${c}`).join(', ')} FROM oauth_tokens t JOIN oauth_grants g ON g.id = t.grant_id WHERE t.token_hash = ?`,
    )
    .get(digest);
  if (!row) return undefined;
  const grant = {} as Record<string, unknown>;
  const token = {} as Record<string, unknown>;
  for (const [k, v] of Object.entries(row)) {
    if (k.startsWith('g_')) grant[k.slice(2)] = v;
    else token[k] = v;
  }
  return { ...(token as unknown as OAuthTokenRow), grant: grant as unknown as OAuthGrantRow };
}

export const grantById = (db: Db, id: number): OAuthGrantRow | undefined => db.prepare<[number], OAuthGrantRow>('SELECT * FROM oauth_grants WHERE id = ?').get(id);

/** Marks a code exchanged or a refresh token rotated. Returns false when it was already used (a race lost). */
export const markTokenUsed = (db: Db, id: number, at: number): boolean => db.prepare('UPDATE oauth_tokens SET used_at = ? WHERE id = ? AND used_at IS NULL').run(at, id).changes === 1;

export const revokeToken = (db: Db, id: number, at: number): void => void db.prepare('UPDATE oauth_tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(at, id);

/** The grant and every token of it stop working. */
export function revokeGrant(db: Db, grantId: number, at: number): void {
  db.prepare('UPDATE oauth_grants SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(at, grantId);
  db.prepare('UPDATE oauth_tokens SET revoked_at = ? WHERE grant_id = ? AND revoked_at IS NULL').run(at, grantId);
}
