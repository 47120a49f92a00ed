// The emulator's own control routes under /_emulator (EMULATOR.md "Addresses";
// README "Control routes"): reset, clock, journal, export/import, health. JSON in,
// JSON out, refusals in the v3 error envelope. adminGate (gate.ts) runs before them.
import { z } from 'zod';
import { ApiError, validationError } from '../errors';
import type { Emulator } from '../emulator';
import type { CallInfo } from '../pipeline';
import { zodToApiError } from '../pipeline';
import { readJson } from '../transports/http/body';
import { json } from '../transports/http/respond';
import type { AppExtensions } from '../transports/http/app';
import { iso } from '../clock';
import { schemaVersion } from '../store/open';
import { FixtureImage, exportDatabase, importDatabaseFile, isSqliteHeader, notSqlite } from '../platform/database';
import { streamBodyToFile } from '../transports/http/body';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setDefaultView } from '../domain/mywork/defaults';
import { FixtureError } from '../fixtures/errors';

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/i;
const MIN_MS = Date.UTC(1970, 0, 1);
const MAX_MS = Date.UTC(9999, 11, 31, 23, 59, 59);
/** Upper bound for one advance: a century. */
const MAX_ADVANCE_MS = 100 * 366 * 86_400_000;

const clockBody = z
  .object({
    now: z.string({ error: 'must be an ISO 8601 date-time string such as 2025-01-31T09:00:00Z' }).optional(),
    frozen: z.boolean({ error: 'must be true or false' }).optional(),
  })
  .strict();

const amount = z.number({ error: 'must be a number' }).finite('must be a finite number').min(0, 'must not be negative');
const advanceBody = z
  .object({ seconds: amount.optional(), minutes: amount.optional(), hours: amount.optional(), days: amount.optional() })
  .strict();

/** Each emulator's fixture image (platform/database.ts), made by its first reset at a frozen instant. */
const images = new WeakMap<Emulator, FixtureImage>();

const defaultViewBody = z
  .object({
    memberId: z.number({ error: 'must be a member id (integer)' }).int({ error: 'must be a member id (integer)' }).min(1, { error: 'must be 1 or more' }),
    viewKey: z.string({ error: 'must be a view key, or null for the Open tasks core view' }).nullable(),
  })
  .strict();

const startedAt = new WeakMap<Emulator, number>();

/** Parses an ISO 8601 date-time (no offset = UTC, spec v3 4.1 rule 6). */
export function parseInstant(s: string, field: string): number {
  const t = s.trim();
  if (!ISO_INSTANT.test(t)) throw validationError(`${field} must be an ISO 8601 date-time such as 2025-01-31T09:00:00Z.`, field);
  const withZone = /(Z|[+-]\d{2}:?\d{2})$/i.test(t) ? t : t + 'Z';
  const ms = Date.parse(withZone);
  const [y, mo, d, h, mi, se] = t.split(/[-T:.Zz+]/).map(Number);
  const real = new Date(Date.UTC(y, mo - 1, d));
  const calendar = real.getUTCFullYear() === y && real.getUTCMonth() === mo - 1 && real.getUTCDate() === d;
  if (!Number.isFinite(ms) || !calendar || h > 23 || mi > 59 || (se ?? 0) > 59) throw validationError(`${field} is not a real date-time.`, field);
  if (ms < MIN_MS || ms > MAX_MS) throw validationError(`${field} must lie between 1970 and 9999.`, field);
  return ms;
}

async function body<T>(req: Request, emu: Emulator, schema: z.ZodType<T>): Promise<T> {
  const raw = await readJson(req, emu.maxBodyBytes, true);
  if (raw === undefined || raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw validationError('Invalid request body: it must be a JSON object.');
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    if (issue.code === 'unrecognized_keys') {
      throw validationError(`Unknown property ${issue.keys.join(', ')}.`, issue.keys[0]);
    }
    throw zodToApiError(parsed.error);
  }
  return parsed.data;
}

/** --max-import-bytes's default: 256 MB (README "Command line"). */
export const DEFAULT_MAX_IMPORT_BYTES = 256 * 1024 * 1024;

export function clockState(emu: Emulator) {
  const now = emu.clock.now();
  return { now: iso(now)!, frozen: emu.clock.frozen, offsetSeconds: Math.round((now - Date.now()) / 1000) };
}

type Handler = (req: Request, emu: Emulator, url: URL) => Promise<Response> | Response;

const routes: Record<string, Partial<Record<string, Handler>>> = {
  '/_emulator/health': {
    GET: (_req, emu) =>
      ok({
        status: 'ok',
        now: iso(emu.clock.now()),
        uptimeSeconds: Math.round((Date.now() - (startedAt.get(emu) ?? Date.now())) / 1000),
        schemaVersion: schemaVersion(),
        fixture: emu.fixtureName,
        database: emu.options.db && emu.options.db !== ':memory:' ? 'file' : 'memory',
        operations: emu.ops.length,
      }),
  },
  '/_emulator/reset': {
    POST: (_req, emu) => {
      try {
        let image = images.get(emu);
        if (!image) images.set(emu, (image = new FixtureImage()));
        image.reset(emu.db, emu.fixture, emu.clock.now(), emu.clock.frozen);
      } catch (e) {
        // An edited fixture directory that no longer loads: refused, the data stays as it was.
        if (e instanceof FixtureError) throw new ApiError(409, 'CONFLICT', `${e.message}. Nothing was reset.`, { issues: e.issues });
        throw e;
      }
      emu.faults.clear();
      emu.limiter.clear();
      return ok({ status: 'reset', fixture: emu.fixtureName, now: iso(emu.clock.now()) });
    },
  },
  // A member's default Tasks grid view (saved view isDefault): the app's choice, with no v3 route.
  '/_emulator/my-work/default-view': {
    PUT: async (req, emu) => {
      const b = await body(req, emu, defaultViewBody);
      return ok(emu.db.transaction(() => setDefaultView(emu.db, b.memberId, b.viewKey))());
    },
  },
  '/_emulator/clock': {
    GET: (_req, emu) => ok(clockState(emu)),
    PUT: async (req, emu) => {
      const b = await body(req, emu, clockBody);
      if (b.now === undefined && b.frozen === undefined) throw validationError('Send now (ISO 8601 date-time) and/or frozen (boolean).', 'now');
      const ms = b.now === undefined ? emu.clock.now() : parseInstant(b.now, 'now');
      emu.clock.set(ms, b.frozen ?? emu.clock.frozen);
      return ok(clockState(emu));
    },
  },
  '/_emulator/clock/advance': {
    POST: async (req, emu) => {
      const b = await body(req, emu, advanceBody);
      const ms = (b.seconds ?? 0) * 1000 + (b.minutes ?? 0) * 60_000 + (b.hours ?? 0) * 3_600_000 + (b.days ?? 0) * 86_400_000;
      if (b.seconds === undefined && b.minutes === undefined && b.hours === undefined && b.days === undefined) {
        throw validationError('Send at least one of seconds, minutes, hours, days (numbers of 0 or more).', 'seconds');
      }
      if (ms > MAX_ADVANCE_MS || emu.clock.now() + ms > MAX_MS) throw validationError('That would move the clock past the year 9999.', 'days');
      emu.clock.advance(Math.round(ms));
      return ok(clockState(emu));
    },
  },
  '/_emulator/journal': {
    GET: (_req, emu, url) => {
      const raw = url.searchParams.get('limit');
      let limit = 100;
      if (raw !== null) {
        if (!/^\s*\d+\s*$/.test(raw) || Number(raw) < 1) throw validationError(`limit must be a whole number from 1 to ${emu.journal.capacity}.`, 'limit');
        limit = Math.min(Number(raw), emu.journal.capacity);
      }
      return ok({ items: emu.journal.last(limit), capacity: emu.journal.capacity });
    },
    DELETE: (_req, emu) => {
      emu.journal.clear();
      return new Response(null, { status: 204 });
    },
  },
  '/_emulator/export': {
    GET: (_req, emu) => {
      const bytes = exportDatabase(emu.db);
      const stamp = iso(emu.clock.now())!.replace(/[:.]/g, '-');
      return new Response(new Uint8Array(bytes), {
        status: 200,
        headers: {
          'Content-Type': 'application/vnd.sqlite3',
          'Content-Disposition': `attachment; filename="wfe-${stamp}.sqlite"`,
          'Content-Length': String(bytes.length),
        },
      });
    },
  },
  '/_emulator/import': {
    POST: async (req, emu) => {
      // Streamed to a temporary file (never held in memory); the header is checked in the
      // first bytes, so junk is refused at once (docs/security.md "Big or hostile bodies").
      const dir = mkdtempSync(join(tmpdir(), 'wfe-import-'));
      try {
        const file = join(dir, 'import.sqlite');
        await streamBodyToFile(req, file, emu.options.maxImportBytes ?? DEFAULT_MAX_IMPORT_BYTES, 'The database file', 16, (head) => {
          if (!isSqliteHeader(head) || head.length < 16) throw notSqlite();
        });
        const out = importDatabaseFile(emu.db, file);
        emu.limiter.clear();
        return ok({ status: 'imported', ...out });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  },
};

const ok = (b: unknown) => json(200, b, {});

/** The extension (src/extensions.ts): serves the routes above under /_emulator. */
export function installControl(emu: Emulator, ext: AppExtensions): void {
  startedAt.set(emu, Date.now());
  ext.emulator.push(controlRoutes);
}

/** The extension handler: answers /_emulator/* routes it knows, leaves the rest to other areas. */
export async function controlRoutes(req: Request, info: CallInfo, emu: Emulator): Promise<Response | undefined> {
  const url = new URL(req.url);
  const path = url.pathname.replace(/\/+$/, '');
  const byMethod = routes[path];
  if (!byMethod) return undefined;
  const h = byMethod[req.method];
  if (!h) {
    const allowed = Object.keys(byMethod).join(', ');
    throw new ApiError(405, 'METHOD_NOT_ALLOWED', `${req.method} is not allowed on ${path}. Allowed: ${allowed}.`, {}, { Allow: allowed });
  }
  const res = await h(req, emu, url);
  res.headers.set('X-Request-Id', info.requestId);
  return res;
}
