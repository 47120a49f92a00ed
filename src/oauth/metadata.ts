// The two discovery documents of a regional address (docs/oauth.md "Discovery"): the MCP
// server's protected-resource metadata (RFC 9728), which names the authorization server on the
// same address, and that authorization server's metadata (RFC 8414). Both are written for the
// address the client used (its Host: localhost or 127.0.0.1), since a client compares the
// resource it asked for with the one the metadata names (origin and path).
import type { Region } from '../context';

export const PROTECTED_RESOURCE_PATH = '/.well-known/oauth-protected-resource';
export const AUTHORIZATION_SERVER_PATH = '/.well-known/oauth-authorization-server';
export const AUTHORIZE_PATH = '/oauth/authorize';
export const TOKEN_PATH = '/oauth/token';
export const REGISTER_PATH = '/oauth/register';
export const REVOKE_PATH = '/oauth/revoke';
export const STYLE_PATH = '/oauth/style.css';

/** The resource the tokens are for: the MCP server's address (RFC 8707). */
export const resourceOf = (origin: string): string => `${origin}/mcp`;

export const CLIENT_AUTH_METHODS = ['none', 'client_secret_post', 'client_secret_basic'] as const;

/** RFC 9728 2: the MCP server at `{origin}/mcp`, signed in to through this address's own authorization server. */
export function protectedResourceMetadata(origin: string, region: Region) {
  return {
    resource: resourceOf(origin),
    authorization_servers: [origin],
    bearer_methods_supported: ['header'],
    resource_name: `Workflow Emulator MCP server (${region})`,
  };
}

/** RFC 8414 2: what this address's authorization server supports. */
export function authorizationServerMetadata(origin: string) {
  return {
    issuer: origin,
    authorization_endpoint: origin + AUTHORIZE_PATH,
    token_endpoint: origin + TOKEN_PATH,
    registration_endpoint: origin + REGISTER_PATH,
    revocation_endpoint: origin + REVOKE_PATH,
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    // OAuth 2.1 and the MCP authorization specification: PKCE with S256, nothing else.
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: [...CLIENT_AUTH_METHODS],
    revocation_endpoint_auth_methods_supported: [...CLIENT_AUTH_METHODS],
    // RFC 9207: the authorization response names its issuer (`iss`), against mix-up attacks.
    authorization_response_iss_parameter_supported: true,
  };
}

/**
 * The origin a request was sent to: the scheme and Host it used (the edge has already refused
 * a Host that is not one of the emulator's names, docs/security.md).
 */
export const originOf = (req: Request): string => new URL(req.url).origin;
