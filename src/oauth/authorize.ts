// The authorization endpoint (OAuth 2.1 4.1, RFC 6749 4.1): GET /oauth/authorize shows the
// sign-in page; its form POSTs back here with the person's choice, and the browser is sent to
// the client's redirect URI with a code (or error=access_denied). Checked in the RFC's order:
// client_id and redirect_uri first, whose faults are never redirected (RFC 6749 4.1.2.1: a
// redirect to an unchecked URI would hand the error to whoever wrote it); then the rest, whose
// faults go back to the client in the redirect.
import type { Region } from '../context';
import type { Emulator } from '../emulator';
import { ApiError } from '../errors';
import { countsTowardThrottle } from '../domain/auth';
import { displayName, memberById, workspaceById } from '../rows/people';
import { oauthClientById, type OAuthClientRow } from '../rows/oauth-clients';
import { insertGrant, type ActsAs } from '../rows/oauth-tokens';
import { signInMembers, workspacesOfRegion } from '../rows/oauth-sign-in';
import type { CallInfo } from '../pipeline';
import { OAuthError, invalidRequest, invalidTarget, oauthJson } from './errors';
import { paramsOf, readForm, type Params } from './form';
import { AUTHORIZE_PATH, originOf, resourceOf } from './metadata';
import { redirectUriMatches } from './redirect-uris';
import { issue } from './tokens';
import { PAGE_HEADERS, esc, page, refusalBox } from './html';

/** What a checked authorization request asks for. */
interface AuthRequest {
  client: OAuthClientRow;
  /** Where the code goes: as sent, or the one registered when none was sent. */
  redirectUri: string;
  /** As sent (the token request must then send the same, RFC 6749 4.1.3), or null. */
  redirectUriSent: string | null;
  state?: string;
  codeChallenge: string;
  resource: string;
  scope?: string;
}

/** The parameters a sign-in form carries back unchanged. */
const CARRIED = ['client_id', 'redirect_uri', 'response_type', 'code_challenge', 'code_challenge_method', 'state', 'resource', 'scope'] as const;

/** Step 1: the client and where to send it; an error here is shown, never redirected. */
function checkClient(emu: Emulator, p: Params, region: Region): { client: OAuthClientRow; redirectUri: string; redirectUriSent: string | null } {
  const id = p.get('client_id');
  if (id === undefined) throw invalidRequest('client_id is required.');
  const client = oauthClientById(emu.db, id);
  if (!client || client.region !== region) {
    throw new OAuthError(
      'invalid_client',
      client ? `Client ${id} was registered on the ${client.region} address: each regional address is its own authorization server.` : `No client ${id} is registered here (POST /oauth/register; a reset or import forgets registrations).`,
    );
  }
  const registered = JSON.parse(client.redirect_uris) as string[];
  const sent = p.get('redirect_uri');
  if (sent === undefined) {
    if (registered.length !== 1) throw invalidRequest('redirect_uri is required: the client registered more than one.');
    return { client, redirectUri: registered[0], redirectUriSent: null };
  }
  if (!registered.some((r) => redirectUriMatches(sent, r))) {
    throw invalidRequest('redirect_uri is not one the client registered (exact match; on a loopback address the port may differ, RFC 8252 7.3).');
  }
  return { client, redirectUri: sent, redirectUriSent: sent };
}

/** The resource (RFC 8707) must be this address's MCP server: a token is for one region's /mcp. */
function checkResource(resource: string | undefined, req: Request): string {
  const here = new URL(req.url);
  if (resource === undefined) return resourceOf(here.origin);
  let r: URL;
  try {
    r = new URL(resource);
  } catch {
    throw invalidTarget('resource is not an absolute URI (RFC 8707 2).');
  }
  const loopback = r.hostname === 'localhost' || r.hostname === '127.0.0.1' || r.hostname === '[::1]';
  if (r.hash || r.protocol !== here.protocol || r.port !== here.port || (r.hostname !== here.hostname && !loopback) || (r.pathname !== '/mcp' && r.pathname !== '/mcp/')) {
    throw invalidTarget(`resource must be this address's MCP server, ${resourceOf(here.origin)}; a token of one region is not accepted by the other.`);
  }
  return resource;
}

/** Step 2: the rest of the request (OAuth 2.1 4.1.1, RFC 7636 4.3); an error here is redirected to the client. */
function checkRequest(p: Params, req: Request): Omit<AuthRequest, 'client' | 'redirectUri' | 'redirectUriSent'> {
  const type = p.get('response_type');
  if (type === undefined) throw invalidRequest('response_type is required (code).');
  if (type !== 'code') throw new OAuthError('unsupported_response_type', `response_type ${type} is not supported: only code (the authorization code flow with PKCE).`);
  const challenge = p.get('code_challenge');
  if (challenge === undefined) throw invalidRequest('code_challenge is required: PKCE is required (OAuth 2.1 4.1.1).');
  const method = p.get('code_challenge_method');
  if (method !== 'S256') throw invalidRequest(`code_challenge_method must be S256${method === undefined ? ' (plain, the default, is not supported)' : `, not ${method}`} (RFC 7636 4.4.1).`);
  if (!/^[A-Za-z0-9_-]{43}$/.test(challenge)) throw invalidRequest('code_challenge must be the 43 base64url characters of an S256 challenge (RFC 7636 4.2).');
  return { state: p.get('state'), codeChallenge: challenge, resource: checkResource(p.get('resource'), req), scope: p.get('scope') };
}

/** The client's redirect URI with these parameters added (its own query kept), and `iss` (RFC 9207). */
function redirectTo(uri: string, params: Record<string, string | undefined>, origin: string): Response {
  const u = new URL(uri);
  for (const [k, v] of Object.entries({ ...params, iss: origin })) if (v !== undefined) u.searchParams.append(k, v);
  return new Response(null, { status: 303, headers: { Location: u.href, 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' } });
}

const wantsHtml = (req: Request) => /\btext\/html\b/i.test(req.headers.get('accept') ?? '');

/** A fault of step 1: the RFC's body for a program, a page in the console's look for a browser. */
function shown(e: OAuthError, req: Request, region: Region, requestId: string): Response {
  if (!wantsHtml(req)) return oauthJson(e.status, { error: e.error, error_description: e.message }, requestId);
  const main = `<h1>This sign-in cannot go on</h1>\n${refusalBox(e.error, e.message)}\n<p class="muted">Nothing was sent back to the app that asked. Start the sign-in again from the app.</p>`;
  return new Response(page('Sign-in refused', region, main), { status: e.status, headers: { ...PAGE_HEADERS, 'X-Request-Id': requestId } });
}

/** The sign-in page: who asks, where it goes, and whom the session acts as. */
function signInPage(emu: Emulator, region: Region, a: AuthRequest, carried: Params, requestId: string, refusal?: { code: string; message: string }, status = 200): Response {
  const who = a.client.name ? `<strong>${esc(a.client.name)}</strong> (client <code>${esc(a.client.client_id)}</code>)` : `The client <code>${esc(a.client.client_id)}</code>`;
  const hidden = CARRIED.flatMap((k) => (carried.has(k) ? [`<input type="hidden" name="${k}" value="${esc(carried.get(k)!)}">`] : [])).join('\n');
  const chosen = carried.get('actor');
  const options: string[] = [];
  for (const ws of workspacesOfRegion(emu.db, region)) {
    const opt = (value: string, label: string) => `<option value="${value}"${chosen === value ? ' selected' : ''}>${esc(label)}</option>`;
    const members = signInMembers(emu.db, ws.id).map((m) => opt(`member:${m.id}`, `${displayName(m)}, ${m.role}${m.email ? ` (${m.email})` : ''}`));
    options.push(`<optgroup label="${esc(ws.name)}">\n${[...members, opt(`workspace:${ws.id}`, `The workspace ${ws.name} (as a workspace key acts)`)].join('\n')}\n</optgroup>`);
  }
  options.push(`<option value="key"${chosen === 'key' ? ' selected' : ''}>The API key typed below</option>`);
  const main = `<h1>Sign in to the MCP server</h1>
<p class="who">${who} asks to use the MCP server at <code>${esc(a.resource)}</code>. Choose whom it acts as: it may then do what that member, the workspace, or that key may do through the API, until the sign-in is revoked.</p>
<p class="muted">The code goes back to <code>${esc(a.redirectUri)}</code>.</p>
${refusal ? refusalBox(refusal.code, refusal.message) : ''}
<form method="post" action="${AUTHORIZE_PATH}" class="stack">
${hidden}
<label for="actor">Act as</label>
<select id="actor" name="actor" required>
<option value="">Choose a member, the workspace, or a key</option>
${options.join('\n')}
</select>
<label for="api_key">API key (only with “The API key typed below”)</label>
<input type="text" id="api_key" name="api_key" autocomplete="off" spellcheck="false">
<div class="actions">
<button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny" class="deny">Deny</button>
</div>
</form>`;
  return new Response(page('Sign in', region, main), { status, headers: { ...PAGE_HEADERS, 'X-Request-Id': requestId } });
}

/** Whom the form chose, checked: a member of this region's workspace, the workspace, or a working key of this region. */
function chosenActor(emu: Emulator, form: Params, region: Region, info: CallInfo): { workspaceId: number; actsAs: ActsAs; memberId: number | null; keyId: number | null } {
  const actor = form.get('actor');
  const refuse = (message: string) => new ApiError(400, 'VALIDATION_ERROR', message, { field: 'actor' });
  if (actor === undefined) throw refuse('Choose whom the session acts as.');
  let m: RegExpExecArray | null;
  if ((m = /^member:(\d{1,15})$/.exec(actor))) {
    const member = memberById(emu.db, Number(m[1]));
    const ws = member && workspaceById(emu.db, member.workspace_id);
    if (!member || !ws || ws.region !== region || member.is_anonymous || member.is_removed) throw refuse(`No member ${m[1]} in a workspace of the ${region} region.`);
    if (!member.is_active || member.role === 'Guest') throw refuse(`${displayName(member)} is deactivated or a Guest: a session, like a key, acts only as an active Administrator or Member (spec v3 5.2).`);
    return { workspaceId: ws.id, actsAs: 'member', memberId: member.id, keyId: null };
  }
  if ((m = /^workspace:(\d{1,15})$/.exec(actor))) {
    const ws = workspaceById(emu.db, Number(m[1]));
    if (!ws || ws.region !== region) throw refuse(`No workspace ${m[1]} in the ${region} region.`);
    return { workspaceId: ws.id, actsAs: 'workspace', memberId: null, keyId: null };
  }
  if (actor !== 'key') throw refuse('Choose a member, the workspace, or the API key typed below.');
  const typed = form.get('api_key');
  if (typed === undefined || typed.trim() === '') throw new ApiError(400, 'MISSING_API_KEY', 'Type the API key the session acts through.');
  // A key typed here meets the invalid-key throttle as the API's keys do (spec v3 8).
  const now = emu.clock.now();
  emu.throttle.check(info.sourceIp, now);
  let principal;
  try {
    principal = emu.keys.resolve(typed.trim(), now);
  } catch (e) {
    if (e instanceof ApiError && countsTowardThrottle(e.code)) emu.throttle.record(info.sourceIp, now);
    throw e;
  }
  if (principal.workspace.region !== region) {
    throw new ApiError(421, 'WRONG_REGION', `This API key belongs to a workspace in the ${principal.workspace.region} region. Sign in on ${emu.baseUrls[principal.workspace.region]} instead.`);
  }
  return { workspaceId: principal.workspace.id, actsAs: 'key', memberId: null, keyId: principal.actor.key.id };
}

export async function handleAuthorize(emu: Emulator, req: Request, info: CallInfo): Promise<Response> {
  const region = info.region;
  const origin = originOf(req);
  const post = req.method === 'POST';
  let p: Params;
  let step1: ReturnType<typeof checkClient>;
  try {
    p = post ? await readForm(req, emu) : paramsOf(new URL(req.url).searchParams);
    step1 = checkClient(emu, p, region);
  } catch (e) {
    if (e instanceof OAuthError) return shown(e, req, region, info.requestId);
    if (e instanceof ApiError && e.status < 500) return shown(new OAuthError('invalid_request', e.message, e.status), req, region, info.requestId);
    throw e;
  }
  let a: AuthRequest;
  try {
    a = { ...step1, ...checkRequest(p, req) };
  } catch (e) {
    if (!(e instanceof OAuthError)) throw e;
    return redirectTo(step1.redirectUri, { error: e.error, error_description: e.message, state: p.get('state') }, origin);
  }
  if (!post) return signInPage(emu, region, a, p, info.requestId);
  if (p.get('decision') === 'deny') return redirectTo(a.redirectUri, { error: 'access_denied', error_description: 'The person signing in denied the request.', state: a.state }, origin);
  if (p.get('decision') !== 'allow') return signInPage(emu, region, a, p, info.requestId, { code: 'VALIDATION_ERROR', message: 'Press Allow or Deny.' }, 400);
  let actor: ReturnType<typeof chosenActor>;
  try {
    actor = chosenActor(emu, p, region, info);
  } catch (e) {
    if (!(e instanceof ApiError) || e.status >= 500) throw e;
    return signInPage(emu, region, a, p, info.requestId, { code: e.code, message: e.message }, 400);
  }
  const now = emu.clock.now();
  const code = emu.db.transaction(() => {
    const grantId = insertGrant(emu.db, { client_id: a.client.id, workspace_id: actor.workspaceId, acts_as: actor.actsAs, member_id: actor.memberId, key_id: actor.keyId, resource: a.resource, created_at: now });
    return issue(emu, grantId, 'code', now, { challenge: a.codeChallenge, redirectUri: a.redirectUriSent }).token;
  })();
  return redirectTo(a.redirectUri, { code, state: a.state }, origin);
}
