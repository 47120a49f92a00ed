// OAuth clients registered with RFC 7591 on one regional address (docs/oauth.md): the rows
// of `oauth_clients`, read and written by src/oauth alone.
import type { Db } from '../store/open';

export type ClientAuthMethod = 'none' | 'client_secret_post' | 'client_secret_basic';

export interface OAuthClientRow {
  id: number;
  client_id: string;
  region: 'US' | 'EU';
  secret_hash: string | null;
  auth_method: ClientAuthMethod;
  name: string | null;
  /** JSON array of strings. */
  redirect_uris: string;
  /** JSON object. */
  metadata: string;
  created_at: number;
}

export const oauthClientById = (db: Db, clientId: string): OAuthClientRow | undefined =>
  db.prepare<[string], OAuthClientRow>('SELECT * FROM oauth_clients WHERE client_id = ?').get(clientId);

export const oauthClientByRowId = (db: Db, id: number): OAuthClientRow | undefined =>
  db.prepare<[number], OAuthClientRow>('SELECT * FROM oauth_clients WHERE id = ?').get(id);

export function insertOAuthClient(db: Db, c: Omit<OAuthClientRow, 'id'>): number {
  const { lastInsertRowid } = db
    .prepare('INSERT INTO oauth_clients (client_id, region, secret_hash, auth_method, name, redirect_uris, metadata, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
    .run(c.client_id, c.region, c.secret_hash, c.auth_method, c.name, c.redirect_uris, c.metadata, c.created_at);
  return Number(lastInsertRowid);
}
