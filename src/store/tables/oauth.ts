// OAuth sign-in on /mcp: clients, grants and tokens (schema.sql version 10, docs/oauth.md):
// declarations (store/columns.ts).
import { col, table } from '../columns';

export const oauthClientsTable = table('oauth_clients', {
  id: col.id(),
  client_id: col.text(),
  region: col.oneOf<'US' | 'EU'>(),
  /** NULL: a public client (token_endpoint_auth_method none). */
  secret_hash: col.textOrNull(),
  auth_method: col.oneOf<'none' | 'client_secret_post' | 'client_secret_basic'>(),
  name: col.textOrNull(),
  /** JSON array of strings, as registered. */
  redirect_uris: col.text(),
  /** JSON object: the registered metadata, answered back. */
  metadata: col.text(),
  created_at: col.int(),
});

/** One sign-in: the client, and whom its tokens act as. */
export const oauthGrantsTable = table('oauth_grants', {
  id: col.id(),
  client_id: col.int(),
  workspace_id: col.int(),
  acts_as: col.oneOf<'member' | 'workspace' | 'key'>(),
  member_id: col.intOrNull(),
  /** acts_as key: the key typed on the sign-in page. */
  key_id: col.intOrNull(),
  /** The RFC 8707 resource the tokens are for (the /mcp address). */
  resource: col.text(),
  created_at: col.int(),
  revoked_at: col.intOrNull(),
});

export const oauthTokensTable = table('oauth_tokens', {
  id: col.id(),
  grant_id: col.int(),
  kind: col.oneOf<'code' | 'access' | 'refresh'>(),
  /** SHA-256 hex; the token itself is never stored. */
  token_hash: col.text(),
  expires_at: col.int(),
  /** A code exchanged, a refresh token rotated. */
  used_at: col.intOrNull(),
  revoked_at: col.intOrNull(),
  /** A code's PKCE S256 challenge. */
  code_challenge: col.textOrNull(),
  /** A code's redirect_uri, as sent to the authorization endpoint. */
  redirect_uri: col.textOrNull(),
  created_at: col.int(),
});
