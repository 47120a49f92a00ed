// OAuth sign-in on /mcp (docs/oauth.md; EMULATOR.md "Agents, audits and packaging"): each
// regional address is an OAuth 2.1 authorization server for its own MCP server, beside
// X-API-KEY. Installed as an extension (src/extensions.ts): the discovery documents, the
// registration, authorization, token and revocation endpoints, the sign-in page's stylesheet,
// the control route that signs in without a browser, and the bearer step of /mcp
// (src/pipeline/bearer.ts). Under --no-oauth none of it exists: those paths are 404 and /mcp
// takes X-API-KEY alone, with no WWW-Authenticate challenge.
import type { Emulator } from '../emulator';
import type { AppExtensions } from '../transports/http/app';
import type { MethodRefusal, RouteHandler, RouteSpec } from '../transports/http/route-table';
import { readAsset } from '../assets';
import { controlRouteSpec, type ControlRoute } from '../control/define';
import { BEARER_TOKENS } from '../pipeline/bearer';
import { json } from '../transports/web/respond';
import { oauthJson, oauthRefusal } from './errors';
import { AccessTokens } from './tokens';
import { handleAuthorize } from './authorize';
import { handleRegister } from './register';
import { handleToken } from './token';
import { handleRevoke } from './revoke';
import { oauthTokenRoute } from './control';
import { SIGN_IN_CSS } from './html';
import {
  AUTHORIZATION_SERVER_PATH,
  AUTHORIZE_PATH,
  PROTECTED_RESOURCE_PATH,
  REGISTER_PATH,
  REVOKE_PATH,
  STYLE_PATH,
  TOKEN_PATH,
  authorizationServerMetadata,
  originOf,
  protectedResourceMetadata,
} from './metadata';

/** A wrong method answers in the RFC's body, with Allow. */
const refuseMethod: MethodRefusal = (method, path, allowed, info) =>
  oauthJson(405, { error: 'invalid_request', error_description: `${method} is not allowed on ${path}. Allowed: ${allowed.join(', ')}.` }, info.requestId, { Allow: allowed.join(', ') });

/** Refusals in the RFC's body (errors.ts). */
const guarded = (handler: RouteHandler): RouteHandler => async (req, call) => {
  try {
    return await handler(req, call);
  } catch (e) {
    return oauthRefusal(e, call.info.requestId);
  }
};

const route = (method: string, path: string, handler: RouteHandler): RouteSpec => ({ method, path, family: 'oauth', exact: true, head: method === 'GET', refuseMethod, handler: guarded(handler) });

/** The console's stylesheet, then the sign-in page's few rules: read once. */
let sheet: string | undefined;
const styleSheet = () => (sheet ??= readAsset('src/console/ui/style.css') + SIGN_IN_CSS);

export function oauthRoutes(): RouteSpec[] {
  const metadata = (doc: (req: Request, region: 'US' | 'EU') => unknown): RouteHandler => (req, { info }) => json(200, doc(req, info.region), { 'X-Request-Id': info.requestId });
  const resource = metadata((req, region) => protectedResourceMetadata(originOf(req), region));
  return [
    route('GET', PROTECTED_RESOURCE_PATH, resource),
    // RFC 9728 3.1: the document of the resource at /mcp may be asked for at the path-suffixed address.
    route('GET', `${PROTECTED_RESOURCE_PATH}/mcp`, resource),
    route('GET', AUTHORIZATION_SERVER_PATH, metadata((req) => authorizationServerMetadata(originOf(req)))),
    route('POST', REGISTER_PATH, (req, { emu, info }) => handleRegister(emu, req, info.region, info.requestId)),
    route('GET', AUTHORIZE_PATH, (req, { emu, info }) => handleAuthorize(emu, req, info)),
    route('POST', AUTHORIZE_PATH, (req, { emu, info }) => handleAuthorize(emu, req, info)),
    route('POST', TOKEN_PATH, (req, { emu, info }) => handleToken(emu, req, info.region, info.requestId)),
    route('POST', REVOKE_PATH, (req, { emu, info }) => handleRevoke(emu, req, info.region, info.requestId)),
    route('GET', STYLE_PATH, (_req, { info }) => new Response(styleSheet(), { status: 200, headers: { 'Content-Type': 'text/css; charset=utf-8', 'Cache-Control': 'no-cache', 'X-Content-Type-Options': 'nosniff', 'X-Request-Id': info.requestId } })),
  ];
}

export function installOAuth(emu: Emulator, ext: AppExtensions): void {
  if (emu.options.oauth === false) return;
  emu.setSlot(BEARER_TOKENS, new AccessTokens(emu));
  ext.routes.push(...oauthRoutes(), controlRouteSpec(oauthTokenRoute as ControlRoute));
}

