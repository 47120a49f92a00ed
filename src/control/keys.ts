// API keys made, changed and revoked while the emulator runs (spec v3 5.2; README "Control
// routes"): what the service's Administrators do in the app, for tests that watch a key expire
// or be revoked mid-run. Shared by /_emulator/keys and the library's `apiKeys`.
// Keys are workspace data: they live in api_keys beside the fixture's, so a reset brings back
// the fixture's keys alone. The key string is returned once, on create; only its digest is kept.
import { z } from 'zod';
import { ApiError, conflict, validationError } from '../errors';
import { newToken, sha256 } from '../ids';
import { iso } from '../clock';
import type { Db } from '../store/open';
import type { KeyRow, MemberRow, WorkspaceRow } from '../rows/people';
import { displayName } from '../rows/people';
import { readJson } from '../transports/web/body';
import { json } from '../transports/web/respond';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;

const actsAs = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('member'), id: z.number({ error: 'must be a member id (integer)' }).int('must be a member id (integer)').positive('must be a member id (integer)') }),
  z.strictObject({ type: z.literal('workspace') }),
], { error: 'must be {"type":"member","id":<memberId>} or {"type":"workspace"}' });

// 5.2: a name up to 100 characters.
const keyName = z.string({ error: 'must be a string of 1 to 100 characters' }).trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters (spec v3 5.2)');
const expiresOn = z.string({ error: 'must be a day YYYY-MM-DD, or null for no expiry' }).nullable();
const by = z.number({ error: 'must be the member id of an Administrator of the workspace' }).int('must be a member id (integer)').positive('must be a member id (integer)');

export const createKeyBody = z.strictObject({
  workspace: z.string({ error: 'must be the workspace key (teamId, a GUID)' }),
  name: keyName,
  actsAs,
  expiresOn: expiresOn.optional(),
  key: z
    .string({ error: 'must be a string' })
    .min(8, 'must be at least 8 characters')
    .max(200, 'must be at most 200 characters')
    .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces')
    .optional(),
  by: by.optional(),
});
export const updateKeyBody = z.strictObject({ name: keyName.optional(), actsAs: actsAs.optional(), expiresOn: expiresOn.optional(), by: by.optional() });
export const revokeKeyBody = z.strictObject({ by: by.optional() });

export type CreateKeyInput = z.input<typeof createKeyBody>;
export type UpdateKeyInput = z.input<typeof updateKeyBody>;

export interface ApiKeyInfo {
  id: number;
  workspace: string;
  region: 'US' | 'EU';
  name: string;
  actsAs: { type: 'member'; id: number; name: string; role: string } | { type: 'workspace' };
  state: 'active' | 'revoked' | 'expired' | 'unavailable';
  createdDateTime: string;
  expiresOn?: string;
  revokedDateTime?: string;
}

export interface KeyChange {
  apiKey: ApiKeyInfo;
  /** Set on create only: the X-API-KEY value, shown this once. */
  key?: string;
  /** The Administrator the change is made as (5.2). */
  by: { id: number; name: string };
  /** 5.2: the other Administrators are notified of a create or a revoke (empty for an edit). */
  notified: { id: number; name: string }[];
}

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
    const rows = workspaceKey === undefined
      ? this.db.prepare<[], KeyRow>('SELECT * FROM api_keys ORDER BY id').all()
      : this.db.prepare<[number], KeyRow>('SELECT * FROM api_keys WHERE workspace_id = ? ORDER BY id').all(this.workspace(workspaceKey, 'workspace').id);
    return rows.map((r) => this.info(r));
  }

  get(id: number): ApiKeyInfo {
    return this.info(this.row(id));
  }

  create(raw: unknown): KeyChange {
    const b = parse(createKeyBody, raw);
    return this.db.transaction((): KeyChange => {
      const ws = this.workspace(b.workspace, 'workspace');
      const admin = this.administrator(ws, b.by);
      const memberId = this.actingMember(ws, b.actsAs);
      const expires = b.expiresOn == null ? null : this.day(b.expiresOn);
      const key = b.key ?? `wfe_${newToken(20)}`;
      const digest = sha256(key);
      if (this.db.prepare<[string], { id: number }>('SELECT id FROM api_keys WHERE key_hash = ?').get(digest)) {
        throw conflict('Another API key already has this value: choose another key, or leave key out and one is generated.');
      }
      const now = this.now();
      const { lastInsertRowid } = this.db
        .prepare('INSERT INTO api_keys (workspace_id, name, key_hash, member_id, expires_on, revoked_at, created_at) VALUES (?, ?, ?, ?, ?, NULL, ?)')
        .run(ws.id, b.name, digest, memberId, expires, now);
      return { apiKey: this.get(Number(lastInsertRowid)), key, by: ref(admin), notified: this.others(ws, admin) };
    })();
  }

  /** 5.2: editing may change name, acting member and expiry; a revoked key stays revoked. */
  update(id: number, raw: unknown): KeyChange {
    const b = parse(updateKeyBody, raw);
    return this.db.transaction((): KeyChange => {
      const row = this.row(id);
      const ws = this.db.prepare<[number], WorkspaceRow>('SELECT * FROM workspaces WHERE id = ?').get(row.workspace_id)!;
      const admin = this.administrator(ws, b.by);
      if (row.revoked_at !== null) throw conflict(`API key ${id} was revoked; a revoked key cannot be changed or restored (spec v3 5.2). Create a new key.`);
      if (b.name === undefined && b.actsAs === undefined && b.expiresOn === undefined) throw validationError('Send at least one of name, actsAs, expiresOn.', 'name');
      const memberId = b.actsAs === undefined ? row.member_id : this.actingMember(ws, b.actsAs);
      const expires = b.expiresOn === undefined ? row.expires_on : b.expiresOn === null ? null : this.day(b.expiresOn);
      this.db.prepare('UPDATE api_keys SET name = ?, member_id = ?, expires_on = ? WHERE id = ?').run(b.name ?? row.name, memberId, expires, id);
      return { apiKey: this.get(id), by: ref(admin), notified: [] };
    })();
  }

  /** 5.2: a revoked key answers 401 API_KEY_REVOKED from the next request on and is never restored. */
  revoke(id: number, raw: unknown = {}): KeyChange {
    const b = parse(revokeKeyBody, raw ?? {});
    return this.db.transaction((): KeyChange => {
      const row = this.row(id);
      const ws = this.db.prepare<[number], WorkspaceRow>('SELECT * FROM workspaces WHERE id = ?').get(row.workspace_id)!;
      const admin = this.administrator(ws, b.by);
      if (row.revoked_at !== null) throw conflict(`API key ${id} is already revoked (on ${iso(row.revoked_at)}).`);
      this.db.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ?').run(this.now(), id);
      return { apiKey: this.get(id), by: ref(admin), notified: this.others(ws, admin) };
    })();
  }

  private row(id: number): KeyRow {
    const row = Number.isSafeInteger(id) ? this.db.prepare<[number], KeyRow>('SELECT * FROM api_keys WHERE id = ?').get(id) : undefined;
    if (!row) throw new ApiError(404, 'NOT_FOUND', `No API key ${id}. GET /_emulator/keys lists them.`);
    return row;
  }

  private workspace(key: string, field: string): WorkspaceRow {
    const ws = this.db.prepare<[string], WorkspaceRow>('SELECT * FROM workspaces WHERE lower(key) = lower(?)').get(key);
    if (!ws) throw validationError(`${field} names no workspace: send its key (the teamId of GET /v3/auth/test).`, field);
    return ws;
  }

  /** The Administrator making the change: `by`, or the workspace's first active Administrator. */
  private administrator(ws: WorkspaceRow, id: number | undefined): MemberRow {
    if (id !== undefined) {
      const m = this.db.prepare<[number, number], MemberRow>('SELECT * FROM members WHERE id = ? AND workspace_id = ?').get(id, ws.id);
      if (!m || m.role !== 'Administrator' || !m.is_active || m.is_removed) {
        throw validationError(`by must be an active Administrator of ${ws.name}: only Administrators create, edit or revoke keys (spec v3 5.2).`, 'by');
      }
      return m;
    }
    const first = this.db
      .prepare<[number], MemberRow>("SELECT * FROM members WHERE workspace_id = ? AND role = 'Administrator' AND is_active = 1 AND is_removed = 0 AND is_anonymous = 0 ORDER BY id LIMIT 1")
      .get(ws.id);
    if (!first) throw conflict(`${ws.name} has no active Administrator: only Administrators create, edit or revoke keys (spec v3 5.2).`);
    return first;
  }

  /** 5.2: a key acts as an Administrator, a Member or the workspace, never as a Guest. */
  private actingMember(ws: WorkspaceRow, a: z.infer<typeof actsAs>): number | null {
    if (a.type === 'workspace') return null;
    const m = this.db.prepare<[number, number], MemberRow>('SELECT * FROM members WHERE id = ? AND workspace_id = ? AND is_anonymous = 0').get(a.id, ws.id);
    if (!m || m.is_removed) throw validationError(`actsAs.id names no member of ${ws.name}.`, 'actsAs.id');
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
    return this.db
      .prepare<[number, number], MemberRow>("SELECT * FROM members WHERE workspace_id = ? AND role = 'Administrator' AND is_active = 1 AND is_removed = 0 AND is_anonymous = 0 AND id != ? ORDER BY id")
      .all(ws.id, admin.id)
      .map(ref);
  }

  private info(r: KeyRow): ApiKeyInfo {
    const ws = this.db.prepare<[number], WorkspaceRow>('SELECT * FROM workspaces WHERE id = ?').get(r.workspace_id)!;
    const m = r.member_id === null ? undefined : this.db.prepare<[number], MemberRow>('SELECT * FROM members WHERE id = ?').get(r.member_id);
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

/** /_emulator/keys: list (?workspace=), create; /_emulator/keys/{id}: read, PATCH, DELETE (revoke). */
export async function keyRoutes(req: Request, info: { requestId: string }, emu: { db: Db; clock: { now(): number }; maxBodyBytes: number }): Promise<Response | undefined> {
  const url = new URL(req.url);
  const path = url.pathname.replace(/\/+$/, '');
  if (path !== ROOT && !path.startsWith(ROOT + '/')) return undefined;
  const admin = new KeyAdmin(emu.db, () => emu.clock.now());
  const headers = { 'X-Request-Id': info.requestId };
  const bodyOf = async (optional: boolean) => {
    const b = await readJson(req, emu.maxBodyBytes, true);
    return b === undefined && optional ? {} : b;
  };
  if (path === ROOT) {
    if (req.method === 'GET') {
      const ws = url.searchParams.get('workspace');
      return json(200, { items: admin.list(ws ?? undefined) }, headers);
    }
    if (req.method === 'POST') {
      const out = admin.create(await bodyOf(false));
      return json(201, out, { ...headers, Location: `${ROOT}/${out.apiKey.id}` });
    }
    throw new ApiError(405, 'METHOD_NOT_ALLOWED', `${req.method} is not allowed on ${ROOT}. Allowed: GET, POST.`, {}, { Allow: 'GET, POST' });
  }
  const raw = decodeURIComponent(path.slice(ROOT.length + 1));
  if (!/^\d{1,15}$/.test(raw)) throw validationError(`${raw} is not an API key id (a whole number; GET ${ROOT} lists them).`, 'id');
  const id = Number(raw);
  if (req.method === 'GET') return json(200, admin.get(id), headers);
  if (req.method === 'PATCH') return json(200, admin.update(id, await bodyOf(false)), headers);
  if (req.method === 'DELETE') return json(200, admin.revoke(id, await bodyOf(true)), headers);
  throw new ApiError(405, 'METHOD_NOT_ALLOWED', `${req.method} is not allowed on ${path}. Allowed: GET, PATCH, DELETE.`, {}, { Allow: 'GET, PATCH, DELETE' });
}
