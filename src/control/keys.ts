// API keys made, changed and revoked while the emulator runs (spec v3 5.2; README "Control
// routes"): what the service's Administrators do in the app, for tests that watch a key expire
// or be revoked mid-run. Shared by /_emulator/keys and the library's `apiKeys`.
// Keys are workspace data: they live in api_keys beside the fixture's, so a reset brings back
// the fixture's keys alone. The key string is returned once, on create; only its digest is kept.
import { z } from 'zod';
import { ApiError, conflict, validationError } from '../errors';
import { newToken, sha256 } from '../ids';
import { iso, DAY_MS } from '../clock';
import type { Db } from '../store/open';
import type { KeyRow, MemberRow, WorkspaceRow } from '../rows/people';
import { displayName, memberById, workspaceById, workspaceByKey } from '../rows/people';
import { activeAdministrators, allKeys, insertKey, keyById, keyHashTaken, keysOfWorkspace, memberOfWorkspace, revokeKey, updateKey } from '../rows/keys';
import { readJson } from '../transports/web/body';
import { json } from '../transports/web/respond';
import { defineControlRoute, type ControlRoute } from './define';
import type { ApiKeyInfo, KeyChange } from '../public/types';
import { lazy } from '../lazy';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

const actsAs = lazy(() => z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('member'), id: z.number({ error: 'must be a member id (integer)' }).int('must be a member id (integer)').positive('must be a member id (integer)') }),
  z.strictObject({ type: z.literal('workspace') }),
], { error: 'must be {"type":"member","id":<memberId>} or {"type":"workspace"}' }));

// 5.2: a name up to 100 characters.
const keyName = lazy(() => z.string({ error: 'must be a string of 1 to 100 characters' }).trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters (spec v3 5.2)'));
const expiresOn = lazy(() => z.string({ error: 'must be a day YYYY-MM-DD, or null for no expiry' }).nullable());
const by = lazy(() => z.number({ error: 'must be the member id of an Administrator of the workspace' }).int('must be a member id (integer)').positive('must be a member id (integer)'));

export const createKeyBody = lazy(() => z.strictObject({
  workspace: z.string({ error: 'must be the workspace key (teamId, a GUID)' }),
  name: keyName(),
  actsAs: actsAs(),
  expiresOn: expiresOn().optional(),
  key: z
    .string({ error: 'must be a string' })
    .min(8, 'must be at least 8 characters')
    .max(200, 'must be at most 200 characters')
    .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces')
    .optional(),
  by: by().optional(),
}));
export const updateKeyBody = lazy(() => z.strictObject({ name: keyName().optional(), actsAs: actsAs().optional(), expiresOn: expiresOn().optional(), by: by().optional() }));
export const revokeKeyBody = lazy(() => z.strictObject({ by: by().optional() }));

export type CreateKeyInput = z.input<ReturnType<typeof createKeyBody>>;
export type UpdateKeyInput = z.input<ReturnType<typeof updateKeyBody>>;

export type { ApiKeyInfo, KeyChange };

function parse<T>(schema: z.ZodType<T>, raw: unknown): T {
  if (raw === undefined || raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw validationError('Invalid request body: it must be a JSON object.');
  const r = schema.safeParse(raw);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  if (issue.code === 'unrecognized_keys') throw validationError(`Unknown property ${issue.keys.join(', ')}.`, issue.keys[0]);
  const field = issue.path.join('.') || undefined;
  throw validationError(`${field ?? 'body'} ${issue.message}.`, field);
}

/** Keys (spec v3 5.2) over one database, judged by the emulator clock. */
export class KeyAdmin {
  constructor(
    private readonly db: Db,
    private readonly now: () => number,
  ) {}

  list(workspaceKey?: string): ApiKeyInfo[] {
    const rows = workspaceKey === undefined ? allKeys(this.db) : keysOfWorkspace(this.db, this.workspace(workspaceKey, 'workspace').id);
    return rows.map((r) => this.info(r));
  }

  get(id: number): ApiKeyInfo {
    return this.info(this.row(id));
  }

  create(raw: unknown): KeyChange {
    const b = parse(createKeyBody(), raw);
    return this.db.transaction((): KeyChange => {
      const ws = this.workspace(b.workspace, 'workspace');
      const admin = this.administrator(ws, b.by);
      const memberId = this.actingMember(ws, b.actsAs);
      const expires = b.expiresOn == null ? null : this.day(b.expiresOn);
      const key = b.key ?? `wfe_${newToken(20)}`;
      const digest = sha256(key);
      if (keyHashTaken(this.db, digest)) {
        throw conflict('Another API key already has this value: choose another key, or leave key out and one is generated.');
      }
      const id = insertKey(this.db, { workspace_id: ws.id, name: b.name, key_hash: digest, member_id: memberId, expires_on: expires, created_at: this.now() });
      return { apiKey: this.get(id), key, by: ref(admin), notified: this.others(ws, admin) };
    })();
  }

  /** 5.2: editing may change name, acting member and expiry; a revoked key stays revoked. */
  update(id: number, raw: unknown): KeyChange {
    const b = parse(updateKeyBody(), raw);
    return this.db.transaction((): KeyChange => {
      const row = this.row(id);
      const ws = workspaceById(this.db, row.workspace_id)!;
      const admin = this.administrator(ws, b.by);
      if (row.revoked_at !== null) throw conflict(`API key ${id} was revoked; a revoked key cannot be changed or restored (spec v3 5.2). Create a new key.`);
      if (b.name === undefined && b.actsAs === undefined && b.expiresOn === undefined) throw validationError('Send at least one of name, actsAs, expiresOn.', 'name');
      const memberId = b.actsAs === undefined ? row.member_id : this.actingMember(ws, b.actsAs);
      const expires = b.expiresOn === undefined ? row.expires_on : b.expiresOn === null ? null : this.day(b.expiresOn);
      updateKey(this.db, id, { name: b.name ?? row.name, member_id: memberId, expires_on: expires });
      return { apiKey: this.get(id), by: ref(admin), notified: [] };
    })();
  }

  /** 5.2: a revoked key answers 401 API_KEY_REVOKED from the next request on and is never restored. */
  revoke(id: number, raw: unknown = {}): KeyChange {
    const b = parse(revokeKeyBody(), raw ?? {});
    return this.db.transaction((): KeyChange => {
      const row = this.row(id);
      const ws = workspaceById(this.db, row.workspace_id)!;
      const admin = this.administrator(ws, b.by);
      if (row.revoked_at !== null) throw conflict(`API key ${id} is already revoked (on ${iso(row.revoked_at)}).`);
      revokeKey(this.db, id, this.now());
      return { apiKey: this.get(id), by: ref(admin), notified: this.others(ws, admin) };
    })();
  }

  private row(id: number): KeyRow {
    const row = Number.isSafeInteger(id) ? keyById(this.db, id) : undefined;
    if (!row) throw new ApiError(404, 'NOT_FOUND', `No API key ${id}. GET /_emulator/keys lists them.`);
    return row;
  }

  private workspace(key: string, field: string): WorkspaceRow {
    const ws = workspaceByKey(this.db, key);
    if (!ws) throw validationError(`${field} names no workspace: send its key (the teamId of GET /v3/auth/test).`, field);
    return ws;
  }

  /** The Administrator making the change: `by`, or the workspace's first active Administrator. */
  private administrator(ws: WorkspaceRow, id: number | undefined): MemberRow {
    if (id !== undefined) {
      const m = memberOfWorkspace(this.db, id, ws.id);
      if (!m || m.role !== 'Administrator' || !m.is_active || m.is_removed) {
        throw validationError(`by must be an active Administrator of ${ws.name}: only Administrators create, edit or revoke keys (spec v3 5.2).`, 'by');
      }
      return m;
    }
    const first = activeAdministrators(this.db, ws.id)[0];
    if (!first) throw conflict(`${ws.name} has no active Administrator: only Administrators create, edit or revoke keys (spec v3 5.2).`);
    return first;
  }

  /** 5.2: a key acts as an Administrator, a Member or the workspace, never as a Guest. */
  private actingMember(ws: WorkspaceRow, a: z.infer<ReturnType<typeof actsAs>>): number | null {
    if (a.type === 'workspace') return null;
    const m = memberOfWorkspace(this.db, a.id, ws.id);
    if (!m || m.is_anonymous || m.is_removed) throw validationError(`actsAs.id names no member of ${ws.name}.`, 'actsAs.id');
    if (m.role === 'Guest') throw validationError(`${displayName(m)} is a Guest: a key never acts as a Guest (spec v3 5.2). Choose an Administrator, a Member or the workspace.`, 'actsAs.id');
    if (!m.is_active) throw validationError(`${displayName(m)} is deactivated: a key acting as them could not be used.`, 'actsAs.id');
    return m.id;
  }

  /** 5.2: "an optional expiry (ends at the end of that day, UTC)"; a day already over is refused. */
  private day(s: string): string {
    const t = s.trim();
    const ms = DAY.test(t) ? Date.parse(`${t}T00:00:00Z`) : NaN;
    if (!Number.isFinite(ms) || new Date(ms).toISOString().slice(0, 10) !== t) throw validationError('expiresOn must be a day YYYY-MM-DD (the key works to the end of that day, UTC), or null.', 'expiresOn');
    if (ms + DAY_MS <= this.now()) throw validationError(`expiresOn ${t} is over (the emulator clock is at ${iso(this.now())}): a key would be expired at once.`, 'expiresOn');
    return t;
  }

  private others(ws: WorkspaceRow, admin: MemberRow): { id: number; name: string }[] {
    return activeAdministrators(this.db, ws.id)
      .filter((m) => m.id !== admin.id)
      .map(ref);
  }

  private info(r: KeyRow): ApiKeyInfo {
    const ws = workspaceById(this.db, r.workspace_id)!;
    const m = r.member_id === null ? undefined : memberById(this.db, r.member_id);
    const expired = r.expires_on !== null && this.now() >= Date.parse(`${r.expires_on}T00:00:00Z`) + DAY_MS;
    const state = r.revoked_at !== null ? 'revoked' : expired ? 'expired' : m && (!m.is_active || m.is_removed || m.role === 'Guest') ? 'unavailable' : 'active';
    return {
      id: r.id,
      workspace: ws.key,
      region: ws.region,
      name: r.name,
      actsAs: m ? { type: 'member', id: m.id, name: displayName(m), role: m.role } : { type: 'workspace' },
      state,
      createdDateTime: iso(r.created_at)!,
      ...(r.expires_on !== null ? { expiresOn: r.expires_on } : {}),
      ...(r.revoked_at !== null ? { revokedDateTime: iso(r.revoked_at)! } : {}),
    };
  }
}

const ref = (m: MemberRow) => ({ id: m.id, name: displayName(m) });

const ROOT = '/_emulator/keys';
/** The id is the rest of the path, slashes and all: .../keys/a/b is refused as no key id (400), not an unknown route. */
const ONE = { path: `${ROOT}/:id`, regex: /^\/_emulator\/keys\/(?<id>[^/][^]*?)\/*$/ };
const ADMIN_REFUSALS = { 400: ['VALIDATION_ERROR'], 404: ['NOT_FOUND'], 409: ['CONFLICT'], 413: ['PAYLOAD_TOO_LARGE'] };

const keyInfo = lazy(() => z.object({
  id: z.number().int(),
  workspace: z.string(),
  region: z.enum(['US', 'EU']),
  name: z.string(),
  actsAs: z.union([z.object({ type: z.literal('member'), id: z.number().int(), name: z.string(), role: z.string() }), z.object({ type: z.literal('workspace') })]),
  state: z.enum(['active', 'revoked', 'expired', 'unavailable']),
  createdDateTime: z.string(),
  expiresOn: z.string().optional(),
  revokedDateTime: z.string().optional(),
}));
const memberRef = lazy(() => z.object({ id: z.number().int(), name: z.string() }));
const keyChange = lazy(() => z.object({
  apiKey: keyInfo(),
  key: z.string().optional().describe('Set on create only: the X-API-KEY value, shown this once.'),
  by: memberRef().describe('The Administrator the change is made as (spec v3 5.2).'),
  notified: z.array(memberRef()).describe('The other Administrators notified of a create or a revoke.'),
}));

const adminOf = (emu: { db: Db; clock: { now(): number } }) => new KeyAdmin(emu.db, () => emu.clock.now());

/** A control body read whatever the Content-Type says; `optional`: none reads as {}. */
async function bodyOf(req: Request, maxBytes: number, optional: boolean): Promise<unknown> {
  const b = await readJson(req, maxBytes, true);
  return b === undefined && optional ? {} : b;
}

function keyId(params: Record<string, string>): number {
  const raw = decodeURIComponent(params.id);
  if (!/^\d{1,15}$/.test(raw)) throw validationError(`${raw} is not an API key id (a whole number; GET ${ROOT} lists them).`, 'id');
  return Number(raw);
}

/** /_emulator/keys: list (?workspace=), create; /_emulator/keys/{id}: read, PATCH, DELETE (revoke). Declared as control routes (define.ts). */
export const keyRoutes: ControlRoute[] = [
  defineControlRoute({
    method: 'GET',
    path: ROOT,
    summary: 'The API keys, of one workspace or all',
    query: { workspace: { description: 'Only the keys of this workspace (its key, the teamId).', schema: { type: 'string' } } },
    output: () => z.object({ items: z.array(keyInfo()) }),
    refusals: { 400: ['VALIDATION_ERROR'] },
    handler: (emu, { url }) => ({ items: adminOf(emu).list(url.searchParams.get('workspace') ?? undefined) }),
  }),
  defineControlRoute({
    method: 'POST',
    path: ROOT,
    summary: 'Create an API key (spec v3 5.2)',
    body: createKeyBody,
    ownBody: true,
    status: 201,
    output: keyChange,
    refusals: { 400: ['VALIDATION_ERROR'], 409: ['CONFLICT'], 413: ['PAYLOAD_TOO_LARGE'] },
    handler: async (emu, { req }) => {
      const out = adminOf(emu).create(await bodyOf(req, emu.maxBodyBytes, false));
      return json(201, out, { Location: `${ROOT}/${out.apiKey.id}` });
    },
  }),
  defineControlRoute({ ...ONE, method: 'GET', summary: 'One API key', output: () => keyInfo(), refusals: { 400: ['VALIDATION_ERROR'], 404: ['NOT_FOUND'] }, handler: (emu, { params }) => adminOf(emu).get(keyId(params)) }),
  defineControlRoute({
    ...ONE,
    method: 'PATCH',
    summary: "Change an API key's name, acting member or expiry (spec v3 5.2)",
    body: updateKeyBody,
    ownBody: true,
    output: keyChange,
    refusals: ADMIN_REFUSALS,
    handler: async (emu, { req, params }) => {
      const id = keyId(params);
      return adminOf(emu).update(id, await bodyOf(req, emu.maxBodyBytes, false));
    },
  }),
  defineControlRoute({
    ...ONE,
    method: 'DELETE',
    summary: 'Revoke an API key (spec v3 5.2): never restored',
    body: revokeKeyBody,
    ownBody: true,
    output: keyChange,
    refusals: ADMIN_REFUSALS,
    handler: async (emu, { req, params }) => {
      const id = keyId(params);
      return adminOf(emu).revoke(id, await bodyOf(req, emu.maxBodyBytes, true));
    },
  }),
];
