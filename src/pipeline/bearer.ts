// OAuth access tokens on /mcp (docs/oauth.md). The area that issues them (src/oauth) puts its
// resolver in this slot when it is on (not under --no-oauth); the key step asks it when a
// request carries a bearer token and no X-API-KEY, so a token resolves to an actor exactly as
// a key does and every later step (region, budget, journal) treats the two alike.
import { Slot } from '../emulator';
import type { Principal } from '../domain/auth';

export interface BearerTokens {
  /** The actor a token acts as, or the spec's 401 (INVALID_API_KEY, API_KEY_EXPIRED, API_KEY_REVOKED, ...). */
  resolve(token: string, now: number): Principal;
}

export const BEARER_TOKENS = new Slot<BearerTokens>('bearer tokens');
