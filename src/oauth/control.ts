// POST /_emulator/oauth/tokens (docs/oauth.md "For tests"): a sign-in without the browser step.
// The tokens it answers are those the sign-in page would give, for a built-in public client
// of the region (client_id `wfe-control-us` / `wfe-control-eu`), so a test can refresh and
// revoke them through /oauth/token and /oauth/revoke like any client.
import { z } from 'zod';
import { ApiError, validationError } from '../errors';
import type { Emulator } from '../emulator';
import { iso } from '../clock';
import { defineControlRoute } from '../control/define';
import { lazy } from '../lazy';
import type { Region } from '../context';
import { displayName, memberById, workspaceByKey } from '../rows/people';
import { insertOAuthClient, oauthClientById } from '../rows/oauth-clients';
import { insertGrant, type ActsAs } from '../rows/oauth-tokens';
import { ACCESS_TTL_MS, tokenPair } from './tokens';
import { resourceOf } from './metadata';

const body = lazy(() =>
  z.strictObject({
    workspace: z.string({ error: 'must be the workspace key (teamId, a GUID)' }).optional(),
    actsAs: z
      .discriminatedUnion(
        'type',
        [
          z.strictObject({ type: z.literal('member'), id: z.number({ error: 'must be a member id (integer)' }).int('must be a member id (integer)').positive('must be a member id (integer)') }),
          z.strictObject({ type: z.literal('workspace') }),
        ],
        { error: 'must be {"type":"member","id":<memberId>} or {"type":"workspace"}' },
      )
      .optional(),
    key: z.string({ error: 'must be an API key (string)' }).min(1, 'must not be empty').optional(),
  }),
);

const output = lazy(() =>
  z.strictObject({
    accessToken: z.string().describe('Send as Authorization: Bearer <accessToken> to /mcp on the region address.'),
    refreshToken: z.string().describe('For POST /oauth/token with grant_type=refresh_token and client_id.'),
    tokenType: z.literal('Bearer'),
    expiresIn: z.number().int().describe('Seconds the access token lives (emulator clock).'),
    expiresAt: z.string().describe('When the access token expires, ISO 8601 UTC (emulator clock).'),
    clientId: z.string().describe('The built-in public client the tokens were issued to.'),
    region: z.enum(['US', 'EU']),
    mcpUrl: z.string().describe('The MCP server the tokens are for.'),
    actsAs: z.strictObject({ type: z.enum(['member', 'workspace', 'key']), id: z.number().int().optional(), name: z.string().optional(), keyName: z.string().optional() }),
  }),
);

/** The region's built-in client, made on first use (a reset forgets it with the rest). */
function controlClient(emu: Emulator, region: Region, now: number): number {
  const clientId = `wfe-control-${region.toLowerCase()}`;
  const existing = oauthClientById(emu.db, clientId);
  if (existing) return existing.id;
  const metadata = { redirect_uris: [], token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'], client_name: 'POST /_emulator/oauth/tokens' };
  return insertOAuthClient(emu.db, { client_id: clientId, region, secret_hash: null, auth_method: 'none', name: metadata.client_name, redirect_uris: '[]', metadata: JSON.stringify(metadata), created_at: now });
}

export const oauthTokenRoute = defineControlRoute({
  method: 'POST',
  path: '/_emulator/oauth/tokens',
  summary: 'Sign in without the browser: OAuth tokens for /mcp acting as a member, the workspace, or a key',
  description:
    'Body: {"workspace": "<teamId>", "actsAs": {"type": "member", "id": 101}} or {"workspace", "actsAs": {"type": "workspace"}}, or {"key": "<API key>"}. The tokens are what the sign-in page gives (docs/oauth.md): the access token acts exactly as a key for that actor on /mcp of the workspace\'s region. 404 when OAuth is off (--no-oauth).',
  body: () => body(),
  output: () => output(),
  refusals: { 400: ['VALIDATION_ERROR'] },
  handler: (emu, { body: b }) => {
    const now = emu.clock.now();
    let region: Region;
    let workspaceId: number;
    let actsAs: ActsAs;
    let memberId: number | null = null;
    let keyId: number | null = null;
    let shown: { type: ActsAs; id?: number; name?: string; keyName?: string };
    if (b.key !== undefined) {
      if (b.workspace !== undefined || b.actsAs !== undefined) throw validationError('Send either key, or workspace with actsAs; not both.', 'key');
      let principal;
      try {
        principal = emu.keys.resolve(b.key, now);
      } catch (e) {
        if (e instanceof ApiError) throw validationError(`key is refused as the API refuses it: ${e.code}: ${e.message}`, 'key');
        throw e;
      }
      region = principal.workspace.region;
      workspaceId = principal.workspace.id;
      actsAs = 'key';
      keyId = principal.actor.key.id;
      shown = { type: 'key', keyName: principal.actor.key.name, ...(principal.actor.kind === 'member' ? { id: principal.actor.member.id, name: displayName(principal.actor.member) } : {}) };
    } else {
      if (b.workspace === undefined) throw validationError('workspace is required (or send key).', 'workspace');
      if (b.actsAs === undefined) throw validationError('actsAs is required: {"type":"member","id":<memberId>} or {"type":"workspace"}.', 'actsAs');
      const ws = workspaceByKey(emu.db, b.workspace);
      if (!ws) throw validationError('workspace names no workspace: send its key (the teamId of GET /v3/auth/test).', 'workspace');
      region = ws.region;
      workspaceId = ws.id;
      if (b.actsAs.type === 'member') {
        const m = memberById(emu.db, b.actsAs.id);
        if (!m || m.workspace_id !== ws.id || m.is_anonymous || m.is_removed) throw validationError(`actsAs.id names no member of ${ws.name}.`, 'actsAs.id');
        if (!m.is_active || m.role === 'Guest') throw validationError(`actsAs.id: ${displayName(m)} is deactivated or a Guest; a sign-in, like a key, acts only as an active Administrator or Member (spec v3 5.2).`, 'actsAs.id');
        actsAs = 'member';
        memberId = m.id;
        shown = { type: 'member', id: m.id, name: displayName(m) };
      } else {
        actsAs = 'workspace';
        shown = { type: 'workspace' };
      }
    }
    const mcpUrl = resourceOf(emu.baseUrls[region]);
    const tokens = emu.db.transaction(() => {
      const clientRow = controlClient(emu, region, now);
      const grantId = insertGrant(emu.db, { client_id: clientRow, workspace_id: workspaceId, acts_as: actsAs, member_id: memberId, key_id: keyId, resource: mcpUrl, created_at: now });
      return tokenPair(emu, grantId, now, true);
    })();
    return {
      accessToken: tokens.access_token,
      refreshToken: tokens.refresh_token!,
      tokenType: 'Bearer' as const,
      expiresIn: tokens.expires_in,
      expiresAt: iso(now + ACCESS_TTL_MS)!,
      clientId: `wfe-control-${region.toLowerCase()}`,
      region,
      mcpUrl,
      actsAs: shown,
    };
  },
});
