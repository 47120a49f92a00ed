// Codes, access and refresh tokens (docs/oauth.md "Tokens"): made from random bytes, kept as
// SHA-256 digests, judged by the emulator clock. An access token resolves to the actor its
// sign-in chose by the key rules themselves (KeyResolver.principalOf), so it acts exactly as a
// key for that actor does: permissions, budgets, journal, 421 across regions.
import { timingSafeEqual } from 'node:crypto';
import { ApiError } from '../errors';
import { iso } from '../clock';
import { newToken, sha256 } from '../ids';
import type { Emulator } from '../emulator';
import type { Principal } from '../domain/auth';
import type { KeyRow } from '../rows/people';
import { keyById } from '../rows/keys';
import { oauthClientByRowId } from '../rows/oauth-clients';
import { insertToken, tokenByHash, type OAuthGrantRow, type TokenKind, type TokenWithGrant } from '../rows/oauth-tokens';
import type { BearerTokens } from '../pipeline/bearer';

/** How long each lives (emulator clock). Codes: a minute, as the sign-in should take seconds. */
export const CODE_TTL_MS = 60_000;
/** Access tokens are short-lived; a client refreshes them (RFC 6749 6). */
export const ACCESS_TTL_MS = 15 * 60_000;
export const REFRESH_TTL_MS = 30 * 86_400_000;

const PREFIX: Record<TokenKind, string> = { code: 'wfe_ac_', access: 'wfe_at_', refresh: 'wfe_rt_' };
const TTL: Record<TokenKind, number> = { code: CODE_TTL_MS, access: ACCESS_TTL_MS, refresh: REFRESH_TTL_MS };

/** Makes one token of a grant and stores its digest; the token itself is only returned. */
export function issue(emu: Emulator, grantId: number, kind: TokenKind, now: number, code?: { challenge: string; redirectUri: string | null }): { token: string; expiresAt: number } {
  const token = PREFIX[kind] + newToken(32);
  const expiresAt = now + TTL[kind];
  insertToken(emu.db, { grant_id: grantId, kind, token_hash: sha256(token), expires_at: expiresAt, code_challenge: code?.challenge ?? null, redirect_uri: code?.redirectUri ?? null, created_at: now });
  return { token, expiresAt };
}

/** The token response of RFC 6749 5.1 for a new access token (and a refresh token when the client may refresh). */
export function tokenPair(emu: Emulator, grantId: number, now: number, withRefresh: boolean) {
  const access = issue(emu, grantId, 'access', now);
  const refresh = withRefresh ? issue(emu, grantId, 'refresh', now) : undefined;
  return {
    access_token: access.token,
    token_type: 'Bearer',
    expires_in: Math.round(ACCESS_TTL_MS / 1000),
    ...(refresh ? { refresh_token: refresh.token } : {}),
  };
}

/** A stored token by its value, when its digest is known (compared again in constant time). */
export function lookup(emu: Emulator, token: string): TokenWithGrant | undefined {
  const digest = sha256(token);
  const row = tokenByHash(emu.db, digest);
  if (!row || !timingSafeEqual(Buffer.from(row.token_hash), Buffer.from(digest))) return undefined;
  return row;
}

/** The code verifier's S256 transform (RFC 7636 4.2): BASE64URL(SHA256(ASCII(code_verifier))). */
export function s256(verifier: string): string {
  return Buffer.from(sha256(verifier), 'hex').toString('base64url');
}

/**
 * The key row a grant acts through: the typed key itself, or one standing for the member or the
 * workspace chosen on the sign-in page. That one never reaches api_keys; its id is the grant's,
 * negated, so idempotency keys, cursors and remembered answers are scoped to the sign-in as they
 * are to a key. Its name is what the journal and GET /v3/auth/test's `apiKey.name` show.
 */
export function keyOfGrant(emu: Emulator, grant: OAuthGrantRow): KeyRow | undefined {
  if (grant.acts_as === 'key') return grant.key_id === null ? undefined : keyById(emu.db, grant.key_id);
  const client = oauthClientByRowId(emu.db, grant.client_id);
  return {
    id: -grant.id,
    workspace_id: grant.workspace_id,
    name: `OAuth: ${client?.name || client?.client_id || 'client'}`.slice(0, 100),
    key_hash: '',
    member_id: grant.acts_as === 'member' ? grant.member_id : null,
    expires_on: null,
    revoked_at: null,
    created_at: grant.created_at,
  };
}

/** The bearer step of /mcp (src/pipeline/bearer.ts): the spec's 401s, in the key's words where a key's. */
export class AccessTokens implements BearerTokens {
  constructor(private readonly emu: Emulator) {}

  resolve(token: string, now: number): Principal {
    const row = lookup(this.emu, token.trim());
    if (!row || row.kind !== 'access') {
      throw new ApiError(401, 'INVALID_API_KEY', 'No workspace has this OAuth access token (a reset or import forgets every sign-in; an API key goes in X-API-KEY, not Authorization).');
    }
    const revokedAt = row.revoked_at ?? row.grant.revoked_at;
    if (revokedAt !== null) {
      throw new ApiError(401, 'API_KEY_REVOKED', `This OAuth access token was revoked on ${iso(revokedAt)!.slice(0, 10)}. Sign in again.`);
    }
    if (now >= row.expires_at) {
      throw new ApiError(401, 'API_KEY_EXPIRED', `This OAuth access token expired at ${iso(row.expires_at)}. Get a new one with the refresh token (grant_type=refresh_token), or sign in again.`);
    }
    const key = keyOfGrant(this.emu, row.grant);
    if (!key) throw new ApiError(401, 'INVALID_API_KEY', 'The API key this sign-in acts through no longer exists (a reset or import forgets it).');
    // The key's own rules: revoked or expired key, member deactivated, removed or made Guest.
    return this.emu.keys.principalOf(key, now);
  }
}
