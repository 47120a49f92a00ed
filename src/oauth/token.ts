// The token endpoint (RFC 6749 4.1.3 and 6, OAuth 2.1 4.1.3, RFC 7636 4.5): a code and its
// verifier for tokens, or a refresh token for new ones. Each exchange is one transaction; a
// code works once, and a refresh token is rotated (a new one with each refresh). A code or a
// refresh token presented again is taken for a stolen one: the whole sign-in is revoked
// (OAuth 2.1 4.1.3 and 4.3.1; RFC 6749 10.5), and every token of it stops working.
import { timingSafeEqual } from 'node:crypto';
import type { Region } from '../context';
import type { Emulator } from '../emulator';
import { workspaceById } from '../rows/people';
import type { OAuthClientRow } from '../rows/oauth-clients';
import { markTokenUsed, revokeGrant, type TokenWithGrant } from '../rows/oauth-tokens';
import { authenticateClient } from './client-auth';
import { OAuthError, invalidGrant, invalidRequest, invalidTarget, oauthJson } from './errors';
import { readForm, type Params } from './form';
import { lookup, s256, tokenPair } from './tokens';

const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

/**
 * How long (emulator clock) a rotated refresh token may be presented again without ending the
 * sign-in: an agent whose parallel calls all meet the access token's expiry refreshes once per
 * call, each with the same refresh token (measured with the SDK's transport: one refresh per
 * request that met the 401). Identity providers call this a reuse interval.
 */
export const REFRESH_REUSE_GRACE_MS = 30_000;

const required = (p: Params, name: string): string => {
  const v = p.get(name);
  if (v === undefined) throw invalidRequest(`${name} is required.`);
  return v;
};

const sameText = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

const mayRefresh = (client: OAuthClientRow) => (JSON.parse(client.metadata) as { grant_types?: string[] }).grant_types?.includes('refresh_token') !== false;

/**
 * A stored code or refresh token, checked for this client and this address. A token unknown,
 * of another client, of the other region, expired or revoked is invalid_grant (RFC 6749 5.2).
 */
function storedGrant(emu: Emulator, value: string, kind: 'code' | 'refresh', client: OAuthClientRow, region: Region, now: number): TokenWithGrant {
  const what = kind === 'code' ? 'authorization code' : 'refresh token';
  const row = lookup(emu, value);
  if (!row || row.kind !== kind) throw invalidGrant(`The ${what} is not one this server issued (a reset or import forgets every sign-in).`);
  const ws = workspaceById(emu.db, row.grant.workspace_id);
  if (!ws || ws.region !== region) throw invalidGrant(`The ${what} was issued by the ${ws?.region ?? 'other'} region's authorization server, not this one: each regional address signs in for its own MCP server.`);
  if (row.grant.client_id !== client.id) throw invalidGrant(`The ${what} was issued to another client.`);
  // A refresh token presented again within the grace is a client's own race (two requests met the
  // same expiry and both refreshed): it gets tokens of its own and nothing is revoked.
  const raced = kind === 'refresh' && row.used_at !== null && now - row.used_at < REFRESH_REUSE_GRACE_MS && row.revoked_at === null && row.grant.revoked_at === null;
  if (row.used_at !== null && !raced) {
    // Presented a second time: whoever holds it may have stolen it. End the sign-in.
    revokeGrant(emu.db, row.grant_id, now);
    throw invalidGrant(`The ${what} was already used; every token of this sign-in is now revoked. Sign in again.`);
  }
  if ((row.revoked_at ?? row.grant.revoked_at) !== null) throw invalidGrant(`The ${what} was revoked. Sign in again.`);
  if (now >= row.expires_at) throw invalidGrant(`The ${what} expired${kind === 'code' ? ' (a code lives one minute)' : ''}. Sign in again.`);
  return row;
}

function checkResource(p: Params, row: TokenWithGrant): void {
  const resource = p.get('resource');
  if (resource !== undefined && resource !== row.grant.resource) throw invalidTarget(`resource must be ${row.grant.resource}, the MCP server this sign-in is for (RFC 8707).`);
}

/** authorization_code: the code, its verifier and redirect URI. */
function exchangeCode(emu: Emulator, p: Params, client: OAuthClientRow, region: Region, now: number) {
  const code = required(p, 'code');
  const verifier = required(p, 'code_verifier');
  const row = storedGrant(emu, code, 'code', client, region, now);
  if (!VERIFIER.test(verifier) || !sameText(s256(verifier), row.code_challenge ?? '')) {
    throw invalidGrant('code_verifier does not match the code_challenge of the authorization request (PKCE S256, RFC 7636 4.6).');
  }
  const redirect = p.get('redirect_uri');
  if (row.redirect_uri !== null && redirect !== row.redirect_uri) {
    throw invalidGrant(redirect === undefined ? 'redirect_uri is required: the authorization request sent one (RFC 6749 4.1.3).' : 'redirect_uri differs from the one of the authorization request (RFC 6749 4.1.3).');
  }
  checkResource(p, row);
  markTokenUsed(emu.db, row.id, now);
  return tokenPair(emu, row.grant_id, now, mayRefresh(client));
}

/** refresh_token: a new access token and a new refresh token; the old refresh token is spent. */
function refresh(emu: Emulator, p: Params, client: OAuthClientRow, region: Region, now: number) {
  if (!mayRefresh(client)) throw new OAuthError('unauthorized_client', 'This client registered grant_types without refresh_token.');
  const row = storedGrant(emu, required(p, 'refresh_token'), 'refresh', client, region, now);
  checkResource(p, row);
  if (row.used_at === null) markTokenUsed(emu.db, row.id, now);
  return tokenPair(emu, row.grant_id, now, true);
}

export async function handleToken(emu: Emulator, req: Request, region: Region, requestId: string): Promise<Response> {
  const p = await readForm(req, emu);
  const grantType = p.get('grant_type');
  if (grantType === undefined) throw invalidRequest('grant_type is required (authorization_code or refresh_token).');
  if (grantType !== 'authorization_code' && grantType !== 'refresh_token') {
    throw new OAuthError('unsupported_grant_type', `grant_type ${grantType} is not supported: authorization_code or refresh_token.`);
  }
  const client = authenticateClient(emu, req, p, region);
  const now = emu.clock.now();
  // One transaction: a refused exchange writes nothing but the revocation a replay earns, which
  // must stay; so the refusal is carried out of the transaction as a value, not thrown through it.
  const outcome = emu.db.transaction((): { ok: Record<string, unknown> } | { refused: OAuthError } => {
    try {
      return { ok: grantType === 'authorization_code' ? exchangeCode(emu, p, client, region, now) : refresh(emu, p, client, region, now) };
    } catch (e) {
      if (e instanceof OAuthError) return { refused: e };
      throw e;
    }
  })();
  if ('refused' in outcome) throw outcome.refused;
  return oauthJson(200, outcome.ok, requestId);
}
