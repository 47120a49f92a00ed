// Who is calling the token and revocation endpoints (RFC 6749 2.3, RFC 7009 2.1): a public
// client names itself with client_id; a confidential one proves its secret in the body
// (client_secret_post) or in Authorization: Basic (client_secret_basic). A client registered
// on the other regional address is unknown here: each address is its own authorization server.
import { timingSafeEqual } from 'node:crypto';
import type { Region } from '../context';
import type { Emulator } from '../emulator';
import { sha256 } from '../ids';
import { oauthClientById, type OAuthClientRow } from '../rows/oauth-clients';
import { invalidClient, invalidRequest } from './errors';
import type { Params } from './form';

/** RFC 6749 2.3.1: Basic credentials are form-urlencoded before base64. */
function basicCredentials(header: string | null): { id: string; secret: string } | undefined {
  if (header === null) return undefined;
  const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header.trim());
  if (!m) return undefined;
  const text = Buffer.from(m[1], 'base64').toString('utf8');
  const colon = text.indexOf(':');
  if (colon < 0) return undefined;
  try {
    const dec = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '));
    return { id: dec(text.slice(0, colon)), secret: dec(text.slice(colon + 1)) };
  } catch {
    return undefined;
  }
}

function sameDigest(secret: string, digest: string): boolean {
  const a = Buffer.from(sha256(secret));
  const b = Buffer.from(digest);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The calling client, or invalid_client (401). */
export function authenticateClient(emu: Emulator, req: Request, params: Params, region: Region): OAuthClientRow {
  const header = req.headers.get('authorization');
  const basic = basicCredentials(header);
  if (header !== null && /^Basic\b/i.test(header.trim()) && !basic) throw invalidClient('The Authorization: Basic credentials cannot be read (RFC 6749 2.3.1).', true);
  if (basic && params.has('client_secret')) throw invalidRequest('Send the client secret once: in Authorization: Basic or as client_secret, not both (RFC 6749 2.3).');
  if (basic && params.has('client_id') && params.get('client_id') !== basic.id) throw invalidRequest('client_id differs from the client named in Authorization: Basic.');
  const id = basic?.id ?? params.get('client_id');
  if (id === undefined) throw invalidClient('Name the client: client_id, or Authorization: Basic for a client with a secret.');
  const client = oauthClientById(emu.db, id);
  if (!client || client.region !== region) {
    throw invalidClient(
      client ? `Client ${id} was registered on the ${client.region} address; each regional address is its own authorization server. Register on this one.` : `No client ${id} is registered here (POST /oauth/register; a reset or import forgets registrations).`,
      basic !== undefined,
    );
  }
  const secret = basic?.secret ?? params.get('client_secret');
  if (client.secret_hash === null) {
    if (secret !== undefined) throw invalidClient(`Client ${id} is a public client (token_endpoint_auth_method none): it has no secret to send.`, basic !== undefined);
    return client;
  }
  if (secret === undefined) throw invalidClient(`Client ${id} has a secret: send it (${client.auth_method}).`, client.auth_method === 'client_secret_basic');
  if (!sameDigest(secret, client.secret_hash)) throw invalidClient(`The secret of client ${id} is wrong.`, basic !== undefined);
  return client;
}
