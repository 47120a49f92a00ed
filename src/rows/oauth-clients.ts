// OAuth clients registered with RFC 7591 on one regional address (docs/oauth.md): the rows
// of `oauth_clients`, read and written by src/oauth alone.
import type { Db } from '../store/open';
import { insertOf, type RowOf } from '../store/columns';
import { oauthClientsTable } from '../store/tables/oauth';

/** A client row as stored (store/tables/oauth.ts): redirect_uris a JSON array, metadata a JSON object. */
export type OAuthClientRow = RowOf<typeof oauthClientsTable.columns>;

export type ClientAuthMethod = OAuthClientRow['auth_method'];

export const oauthClientById = (db: Db, clientId: string): OAuthClientRow | undefined =>
  db.prepare<[string], OAuthClientRow>('SELECT * FROM oauth_clients WHERE client_id = ?').get(clientId);

export const oauthClientByRowId = (db: Db, id: number): OAuthClientRow | undefined =>
  db.prepare<[number], OAuthClientRow>('SELECT * FROM oauth_clients WHERE id = ?').get(id);

const CLIENT_INSERT = insertOf(oauthClientsTable);

export function insertOAuthClient(db: Db, c: Omit<OAuthClientRow, 'id'>): number {
  return Number(db.prepare(CLIENT_INSERT.sql).run(CLIENT_INSERT.values(c)).lastInsertRowid);
}
