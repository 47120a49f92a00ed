// Which redirect URIs a client may register, and when a requested one is the one registered
// (docs/oauth.md "Redirect URIs"). Exact string matches, except that a loopback redirect URI's
// port may differ (RFC 8252 7.3: a native app takes a free port each time it signs in).

/** The loopback names whose port may vary; the name itself must match (localhost is not 127.0.0.1). */
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Schemes that run or read something instead of handing a code to an app. */
const REFUSED_SCHEMES = new Set(['javascript:', 'data:', 'vbscript:', 'file:', 'blob:', 'about:', 'filesystem:']);

/**
 * Why a redirect URI cannot be registered, or undefined when it can: an absolute URI without a
 * fragment (RFC 6749 3.1.2); https anywhere; http only on a loopback address (RFC 8252 7.3, so no
 * code crosses a network in clear); or an app's private-use scheme (RFC 8252 7.1).
 */
export function redirectUriProblem(uri: string): string | undefined {
  if (uri.length > 2000) return 'is longer than 2000 characters';
  let u: URL;
  try {
    u = new URL(uri);
  } catch {
    return 'is not an absolute URI';
  }
  if (uri.includes('#')) return 'has a fragment (RFC 6749 3.1.2)';
  if (REFUSED_SCHEMES.has(u.protocol)) return `uses the ${u.protocol} scheme, which no app can receive a code on`;
  if (u.protocol === 'http:' && !LOOPBACK.has(u.hostname)) return 'uses http on a host other than localhost, 127.0.0.1 or [::1] (use https, or a loopback address as RFC 8252 7.3 says)';
  if ((u.protocol === 'http:' || u.protocol === 'https:') && (u.username || u.password)) return 'carries a user name or password';
  return undefined;
}

/** Whether `requested` is one of the registered URIs: exactly, or with another port on loopback. */
export function redirectUriMatches(requested: string, registered: string): boolean {
  if (requested === registered) return true;
  let req: URL, reg: URL;
  try {
    req = new URL(requested);
    reg = new URL(registered);
  } catch {
    return false;
  }
  if (req.protocol !== 'http:' || reg.protocol !== 'http:' || !LOOPBACK.has(reg.hostname)) return false;
  // Everything but the port as registered, compared as sent (no normalising of paths or queries).
  const withoutPort = (s: string, u: URL) => s.replace(`${u.protocol}//${u.host}`, `${u.protocol}//${u.hostname}`);
  return req.hostname === reg.hostname && withoutPort(requested, req) === withoutPort(registered, reg);
}
