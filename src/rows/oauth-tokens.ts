// OAuth grants (one sign-in each) and their codes, access and refresh tokens (docs/oauth.md):
// the rows of `oauth_grants` and `oauth_tokens`, read and written by src/oauth alone. Tokens
// are found by their SHA-256 digest; the token itself is never stored.
import type { Db } from '../store/open';
import { columnNames, insertOf, type RowOf } from '../store/columns';
import { oauthGrantsTable, oauthTokensTable } from '../store/tables/oauth';

/** A grant row as stored (store/tables/oauth.ts). */
export type OAuthGrantRow = RowOf<typeof oauthGrantsTable.columns>;

/** A code, access or refresh token row as stored. */
export type OAuthTokenRow = RowOf<typeof oauthTokensTable.columns>;

export type ActsAs = OAuthGrantRow['acts_as'];
export type TokenKind = OAuthTokenRow['kind'];

/** A token with its grant, as one lookup answers it. */
export type TokenWithGrant = OAuthTokenRow & { grant: OAuthGrantRow };

// A grant is written not revoked, a token neither used nor revoked: those columns NULL.
const GRANT_INSERT = insertOf(oauthGrantsTable);
const TOKEN_INSERT = insertOf(oauthTokensTable);

export function insertGrant(db: Db, g: Omit<OAuthGrantRow, 'id' | 'revoked_at'>): number {
  return Number(db.prepare(GRANT_INSERT.sql).run(GRANT_INSERT.values({ ...g, revoked_at: null })).lastInsertRowid);
}

export function insertToken(db: Db, t: Omit<OAuthTokenRow, 'id' | 'used_at' | 'revoked_at'>): number {
  return Number(db.prepare(TOKEN_INSERT.sql).run(TOKEN_INSERT.values({ ...t, used_at: null, revoked_at: null })).lastInsertRowid);
}

const GRANT_COLUMNS = columnNames(oauthGrantsTable);

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
