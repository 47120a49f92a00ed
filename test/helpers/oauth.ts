// OAuth sign-in for tests (docs/oauth.md): an in-memory OAuthClientProvider for the MCP SDK's
// own client auth, and the browser's part of a sign-in done with fetch, as a browser would:
// GET the sign-in page, read its form, POST it back (with the page's Origin), follow nothing.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';

/** Where a native client would listen; nothing listens there, the test reads the redirect's Location. */
export const REDIRECT = 'http://127.0.0.1:49152/callback';

export class MemoryProvider implements OAuthClientProvider {
  info?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = '';
  /** The last authorization URL the SDK sent the "browser" to. */
  authorizationUrl?: URL;
  constructor(
    readonly name = 'wfe OAuth test',
    readonly redirect = REDIRECT,
    readonly authMethod: 'none' | 'client_secret_post' | 'client_secret_basic' = 'none',
  ) {}
  get redirectUrl() {
    return this.redirect;
  }
  get clientMetadata(): OAuthClientMetadata {
    return { client_name: this.name, redirect_uris: [this.redirect], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: this.authMethod };
  }
  state() {
    return 'state-' + randomBytes(8).toString('hex');
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(t: OAuthTokens) {
    this.saved = t;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(v: string) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
}

const unescape = (s: string) => s.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

export interface SignInPage {
  status: number;
  html: string;
  hidden: Record<string, string>;
  /** The "Act as" choices: value and label. */
  options: { value: string; label: string }[];
}

/** GET the sign-in page as a browser does and read its form. */
export async function openSignIn(url: string | URL): Promise<SignInPage> {
  const res = await fetch(url, { headers: { Accept: 'text/html,application/xhtml+xml' }, redirect: 'manual' });
  const html = await res.text();
  const hidden: Record<string, string> = {};
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) hidden[m[1]] = unescape(m[2]);
  const options = [...html.matchAll(/<option value="([^"]*)"[^>]*>([^<]*)<\/option>/g)].map((m) => ({ value: unescape(m[1]), label: unescape(m[2]) }));
  return { status: res.status, html, hidden, options };
}

/** The choice whose label starts with `label` (a member's name, "The workspace", "The API key"). */
export function choice(page: SignInPage, label: string): string {
  const o = page.options.find((x) => x.label.startsWith(label));
  assert.ok(o, `the sign-in page offers ${label}: ${page.options.map((x) => x.label).join(' | ')}`);
  return o.value;
}

/** POST the sign-in form as the browser does: the page's hidden fields plus the person's choice, with the page's Origin. */
export async function submitSignIn(url: string | URL, page: SignInPage, fields: Record<string, string>, origin = new URL(url).origin): Promise<Response> {
  const form = new URLSearchParams({ ...page.hidden, ...fields });
  return fetch(new URL('/oauth/authorize', url), { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: origin, Accept: 'text/html' }, body: form.toString(), redirect: 'manual' });
}

/** The whole browser step: open, choose, allow; the redirect's parameters (code, state, iss or error). */
export async function browserSignIn(url: string | URL, as: string | { key: string }): Promise<URLSearchParams> {
  const page = await openSignIn(url);
  assert.equal(page.status, 200, page.html);
  const fields: Record<string, string> = typeof as === 'string' ? { actor: choice(page, as), decision: 'allow' } : { actor: 'key', api_key: as.key, decision: 'allow' };
  const res = await submitSignIn(url, page, fields);
  assert.equal(res.status, 303, await res.text());
  return new URL(res.headers.get('location')!).searchParams;
}

export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** RFC 7591 registration; answers status and body. */
export async function register(base: string, metadata: Record<string, unknown>): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await fetch(`${base}/oauth/register`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(metadata) });
  return { status: res.status, body: await res.json().catch(() => undefined), headers: res.headers };
}

/** POST a form to an OAuth endpoint (token, revoke); answers status, body and headers. */
export async function postForm(url: string, params: Record<string, string>, headers: Record<string, string> = {}): Promise<{ status: number; body: any; headers: Headers; text: string }> {
  const res = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers }, body: new URLSearchParams(params).toString() });
  const text = await res.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { status: res.status, body, headers: res.headers, text };
}

/** An authorization URL for a registered public client. */
export function authorizeUrl(base: string, clientId: string, challenge: string, extra: Record<string, string> = {}): string {
  const q = new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: 'S256', state: 'st-1', resource: `${base}/mcp`, ...extra });
  return `${base}/oauth/authorize?${q}`;
}

/**
 * A sign-in without the SDK: register a public client, sign in as `as`, exchange the code.
 * Answers the client id, the token response and the verifier's pieces.
 */
export async function signInRaw(base: string, as: string | { key: string }): Promise<{ clientId: string; tokens: any; code: string }> {
  const reg = await register(base, { client_name: 'raw test client', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' });
  assert.equal(reg.status, 201, JSON.stringify(reg.body));
  const { verifier, challenge } = pkce();
  const back = await browserSignIn(authorizeUrl(base, reg.body.client_id, challenge), as);
  const code = back.get('code')!;
  assert.ok(code, back.toString());
  const t = await postForm(`${base}/oauth/token`, { grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: REDIRECT, client_id: reg.body.client_id });
  assert.equal(t.status, 200, t.text);
  return { clientId: reg.body.client_id, tokens: t.body, code };
}

/** A raw JSON-RPC POST to /mcp with the given headers. */
export async function mcpPost(base: string, headers: Record<string, string>, body: unknown = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await fetch(`${base}/mcp`, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers }, body: JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
}

/** An OAuth route's refusal: status, and the RFC's body with that `error`. */
export function oauthError(r: { status: number; body: any; text?: string }, status: number, error: string): void {
  assert.equal(r.status, status, r.text ?? JSON.stringify(r.body));
  assert.equal(r.body.error, error, JSON.stringify(r.body));
  assert.equal(typeof r.body.error_description, 'string');
}

/** A registered public client (token_endpoint_auth_method none) redirecting to REDIRECT. */
export async function publicClient(base: string, extra: Record<string, unknown> = {}): Promise<string> {
  const r = await register(base, { client_name: 'refusal test', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none', ...extra });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  return r.body.client_id as string;
}

/** A code for a public client, signed in as `as`; with its verifier. */
export async function codeFor(base: string, as = 'Ada Admin', clientId?: string): Promise<{ clientId: string; verifier: string; code: string }> {
  const id = clientId ?? (await publicClient(base));
  const { verifier, challenge } = pkce();
  const back = await browserSignIn(authorizeUrl(base, id, challenge), as);
  return { clientId: id, verifier, code: back.get('code')! };
}

/** The code exchange of RFC 6749 4.1.3, with `extra` parameters changed or added. */
export const exchange = (base: string, c: { clientId: string; verifier: string; code: string }, extra: Record<string, string> = {}) =>
  postForm(`${base}/oauth/token`, { grant_type: 'authorization_code', code: c.code, code_verifier: c.verifier, redirect_uri: REDIRECT, client_id: c.clientId, ...extra });
