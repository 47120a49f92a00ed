// The OAuth routes' refusals (docs/oauth.md "Refusals"): the RFCs' own error body,
// `{"error", "error_description"}` (RFC 6749 5.2, RFC 7591 3.2.2, RFC 7009 2.2.1), never the v3
// envelope, since the clients reading them are OAuth libraries.
import { ApiError } from '../errors';
import { JSON_TYPE } from '../transports/web/respond';

export class OAuthError extends Error {
  constructor(
    /** The RFC's code: invalid_request, invalid_client, invalid_grant, unsupported_grant_type, ... */
    readonly error: string,
    description: string,
    readonly status = 400,
    readonly headers: Record<string, string> = {},
  ) {
    super(description);
  }
}

export const invalidRequest = (d: string) => new OAuthError('invalid_request', d);
export const invalidGrant = (d: string) => new OAuthError('invalid_grant', d);
/** RFC 6749 5.2: 401 for a client that failed to authenticate. */
export const invalidClient = (d: string, basic = false) =>
  new OAuthError('invalid_client', d, 401, basic ? { 'WWW-Authenticate': 'Basic realm="wfe-oauth"' } : {});
export const invalidTarget = (d: string) => new OAuthError('invalid_target', d);

/** Answers of the token, registration and revocation endpoints are never cached (RFC 6749 5.1). */
export const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };

export function oauthJson(status: number, body: unknown, requestId: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': JSON_TYPE, ...NO_STORE, ...headers, 'X-Request-Id': requestId } });
}

/**
 * An OAuth route's refusal in the RFC's body. A refusal of the shared body reader (413 for a
 * body past the limit) keeps its status and becomes `invalid_request`; anything else is a bug,
 * rethrown for the route table's 500.
 */
export function oauthRefusal(e: unknown, requestId: string): Response {
  if (e instanceof OAuthError) return oauthJson(e.status, { error: e.error, error_description: e.message }, requestId, e.headers);
  if (e instanceof ApiError && e.status < 500) return oauthJson(e.status, { error: 'invalid_request', error_description: e.message }, requestId, e.headers);
  throw e;
}
