// Dynamic client registration (RFC 7591): POST /oauth/register with the client's metadata as
// JSON answers 201 with a client_id (and a secret for a confidential client). Refusals are
// RFC 7591 3.2.2's: invalid_redirect_uri, invalid_client_metadata.
import type { Region } from '../context';
import type { Emulator } from '../emulator';
import { newToken, sha256 } from '../ids';
import { insertOAuthClient, type ClientAuthMethod } from '../rows/oauth-clients';
import { readBodyText } from '../transports/web/body';
import { OAuthError, oauthJson } from './errors';
import { FORM_LIMIT } from './form';
import { CLIENT_AUTH_METHODS } from './metadata';
import { redirectUriProblem } from './redirect-uris';

const badMetadata = (d: string) => new OAuthError('invalid_client_metadata', d);
const badRedirect = (d: string) => new OAuthError('invalid_redirect_uri', d);

/** Metadata kept and answered back as strings (RFC 7591 2); others are ignored, as 2 allows. */
const TEXT_FIELDS = ['client_name', 'client_uri', 'logo_uri', 'scope', 'tos_uri', 'policy_uri', 'software_id', 'software_version'] as const;

function stringList(v: unknown, name: string, max: number): string[] {
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) throw badMetadata(`${name} must be an array of strings.`);
  if (v.length > max) throw badMetadata(`${name} may hold at most ${max} values.`);
  return v as string[];
}

/** Checks the metadata and registers the client, in one transaction; returns RFC 7591 3.2.1's answer. */
export function registerClient(emu: Emulator, raw: unknown, region: Region, now: number): Record<string, unknown> {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw badMetadata('The body must be a JSON object of client metadata (RFC 7591 2).');
  const m = raw as Record<string, unknown>;
  if (m.redirect_uris === undefined) throw badRedirect('redirect_uris is required: the authorization code flow sends the code to one of them.');
  if (!Array.isArray(m.redirect_uris) || m.redirect_uris.some((x) => typeof x !== 'string')) throw badRedirect('redirect_uris must be an array of strings.');
  const redirectUris = m.redirect_uris as string[];
  if (redirectUris.length === 0 || redirectUris.length > 20) throw badRedirect('redirect_uris must hold 1 to 20 URIs.');
  for (const uri of redirectUris) {
    const problem = redirectUriProblem(uri);
    if (problem) throw badRedirect(`The redirect URI ${JSON.stringify(uri.slice(0, 200))} ${problem}.`);
  }
  const method = (m.token_endpoint_auth_method ?? 'client_secret_basic') as ClientAuthMethod;
  if (!(CLIENT_AUTH_METHODS as readonly unknown[]).includes(method)) {
    throw badMetadata(`token_endpoint_auth_method must be one of ${CLIENT_AUTH_METHODS.join(', ')}.`);
  }
  const grantTypes = m.grant_types === undefined ? ['authorization_code', 'refresh_token'] : stringList(m.grant_types, 'grant_types', 10);
  const unknownGrant = grantTypes.find((g) => g !== 'authorization_code' && g !== 'refresh_token');
  if (unknownGrant !== undefined) throw badMetadata(`grant_types: ${JSON.stringify(unknownGrant.slice(0, 100))} is not supported; this server offers authorization_code and refresh_token.`);
  if (!grantTypes.includes('authorization_code')) throw badMetadata('grant_types must include authorization_code: it is the only way to sign in here.');
  const responseTypes = m.response_types === undefined ? ['code'] : stringList(m.response_types, 'response_types', 10);
  if (responseTypes.some((t) => t !== 'code')) throw badMetadata('response_types may only hold "code".');
  const kept: Record<string, unknown> = {};
  for (const f of TEXT_FIELDS) {
    const v = m[f];
    if (v === undefined || v === null) continue;
    if (typeof v !== 'string') throw badMetadata(`${f} must be a string.`);
    if (v.length > 2000) throw badMetadata(`${f} must be at most 2000 characters.`);
    kept[f] = v;
  }
  if (typeof kept.client_name === 'string' && kept.client_name.length > 200) throw badMetadata('client_name must be at most 200 characters.');
  if (m.contacts !== undefined) kept.contacts = stringList(m.contacts, 'contacts', 20);
  const metadata = { redirect_uris: redirectUris, token_endpoint_auth_method: method, grant_types: grantTypes, response_types: responseTypes, ...kept };
  const clientId = `wfe-client-${newToken(16)}`;
  const secret = method === 'none' ? undefined : `wfe_cs_${newToken(32)}`;
  emu.db.transaction(() => {
    insertOAuthClient(emu.db, {
      client_id: clientId,
      region,
      secret_hash: secret === undefined ? null : sha256(secret),
      auth_method: method,
      name: typeof kept.client_name === 'string' ? kept.client_name : null,
      redirect_uris: JSON.stringify(redirectUris),
      metadata: JSON.stringify(metadata),
      created_at: now,
    });
  })();
  return {
    client_id: clientId,
    client_id_issued_at: Math.floor(now / 1000),
    ...(secret === undefined ? {} : { client_secret: secret, client_secret_expires_at: 0 }),
    ...metadata,
  };
}

export async function handleRegister(emu: Emulator, req: Request, region: Region, requestId: string): Promise<Response> {
  const text = await readBodyText(req, Math.min(FORM_LIMIT, emu.maxBodyBytes));
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw badMetadata('The body is not JSON: send the client metadata as a JSON object (RFC 7591 3.1).');
  }
  return oauthJson(201, registerClient(emu, raw, region, emu.clock.now()), requestId);
}
