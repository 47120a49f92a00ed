// Token revocation (RFC 7009): POST /oauth/revoke with `token` (and the client's credentials).
// An access token stops working at once; a refresh token ends its whole sign-in, access tokens
// included (RFC 7009 2.1). A token this server does not know (another region's, a made-up one,
// one already revoked) is answered 200 all the same (RFC 7009 2.2): there is nothing to tell.
import type { Region } from '../context';
import type { Emulator } from '../emulator';
import { workspaceById } from '../rows/people';
import { revokeGrant, revokeToken } from '../rows/oauth-tokens';
import { authenticateClient } from './client-auth';
import { OAuthError, invalidRequest } from './errors';
import { readForm } from './form';
import { lookup } from './tokens';

export async function handleRevoke(emu: Emulator, req: Request, region: Region, requestId: string): Promise<Response> {
  const p = await readForm(req, emu);
  const client = authenticateClient(emu, req, p, region);
  const token = p.get('token');
  if (token === undefined) throw invalidRequest('token is required (RFC 7009 2.1).');
  const hint = p.get('token_type_hint');
  // Hints are hints (2.1); one naming a kind of token this server has none of is refused (2.2.1).
  if (hint !== undefined && hint !== 'access_token' && hint !== 'refresh_token') throw new OAuthError('unsupported_token_type', `token_type_hint ${hint} names no kind of token this server issues (access_token, refresh_token).`);
  const row = lookup(emu, token);
  const ws = row && workspaceById(emu.db, row.grant.workspace_id);
  if (row && row.kind !== 'code' && ws?.region === region) {
    // 2.1: the server checks the token was issued to the client asking.
    if (row.grant.client_id !== client.id) throw invalidRequest('The token was issued to another client; only that client may revoke it.');
    const now = emu.clock.now();
    emu.db.transaction(() => (row.kind === 'refresh' ? revokeGrant(emu.db, row.grant_id, now) : revokeToken(emu.db, row.id, now)))();
  }
  return new Response(null, { status: 200, headers: { 'Cache-Control': 'no-store', 'X-Request-Id': requestId } });
}

