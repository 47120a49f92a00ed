// The emulator's own control routes under /_emulator (EMULATOR.md "Addresses";
// README "Control routes"): reset, clock, journal, export/import, health. JSON in,
// JSON out, refusals in the v3 error envelope. adminGate (gate.ts) runs before them
// (the request chain, src/request-chain.ts). Declared as data (define.ts).
import { z } from 'zod';
import { ApiError, validationError } from '../errors';
import type { Emulator } from '../emulator';
import { JSON_TYPE } from '../transports/web/respond';
import type { AppExtensions } from '../transports/http/app';
import { iso } from '../clock';
import { schemaVersion } from '../store/open';
import { exportDatabase, importDatabaseFile, isSqliteHeader, notSqlite } from '../platform/database';
import { streamBodyToFile } from '../transports/web/body';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { setDefaultView } from '../domain/mywork/defaults';
import { FixtureError } from '../fixtures/errors';
import { controlRouteSpec, declaredControlRoutes, defineControlRoute, type ControlRoute } from './define';
import { controlOpenApi } from './openapi';
import { lazy } from '../lazy';
import { schedulerOf } from '../schedules/install';
import { overviewRoute } from './overview';

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/i;
const MIN_MS = Date.UTC(1970, 0, 1);
const MAX_MS = Date.UTC(9999, 11, 31, 23, 59, 59);
/** Upper bound for one advance: a century. */
const MAX_ADVANCE_MS = 100 * 366 * 86_400_000;

const clockBody = lazy(() => z
  .object({
    now: z.string({ error: 'must be an ISO 8601 date-time string such as 2025-01-31T09:00:00Z' }).optional(),
    frozen: z.boolean({ error: 'must be true or false' }).optional(),
  })
  .strict());

const amount = lazy(() => z.number({ error: 'must be a number' }).finite('must be a finite number').min(0, 'must not be negative'));
const advanceBody = lazy(() => z
  .object({ seconds: amount().optional(), minutes: amount().optional(), hours: amount().optional(), days: amount().optional() })
  .strict());

const defaultViewBody = lazy(() => z
  .object({
    memberId: z.number({ error: 'must be a member id (integer)' }).int({ error: 'must be a member id (integer)' }).min(1, { error: 'must be 1 or more' }),
    viewKey: z.string({ error: 'must be a view key, or null for the Open tasks core view' }).nullable(),
  })
  .strict());

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

/** --max-import-bytes's default: 256 MB (README "Command line"). */
export const DEFAULT_MAX_IMPORT_BYTES = 256 * 1024 * 1024;

export function clockState(emu: Emulator) {
  const now = emu.clock.now();
  return { now: iso(now)!, frozen: emu.clock.frozen, offsetSeconds: Math.round((now - Date.now()) / 1000) };
}

/**
 * A clock move answers once the schedule runs it made due have started (README "Schedules":
 * the next request sees them), not on the scheduler's next poll. A catch-up already under
 * way may have looked at the clock before the move, so a second one follows it.
 */
async function afterDueWork(emu: Emulator) {
  const scheduler = schedulerOf(emu);
  if (scheduler) {
    await scheduler.tick();
    await scheduler.tick();
  }
  return clockState(emu);
}

const clockOutput = lazy(() => z.object({
  now: z.string().describe('The emulator clock, ISO 8601 UTC.'),
  frozen: z.boolean().describe('Whether the clock stands still.'),
  offsetSeconds: z.number().int().describe('How far the emulator clock is from the real one.'),
}));

// The journal's entry as platform/journal.ts keeps it (JournalEntry).
const journalEntry = lazy(() => z.object({
  at: z.string(), method: z.string(), path: z.string(), status: z.number().int(), requestId: z.string(), durationMs: z.number(),
  keyName: z.string().optional(),
  region: z.enum(['US', 'EU']),
  fault: z.object({ rule: z.string(), kind: z.enum(['status', 'delay', 'drop']) }).optional(),
  console: z.literal(true).optional(),
}));

const BAD_BODY = { 400: ['VALIDATION_ERROR'], 413: ['PAYLOAD_TOO_LARGE'] };

/** The control routes of this area, as data (control/define.ts). */
export const controlRoutes: ControlRoute[] = [
  defineControlRoute({
    method: 'GET',
    path: '/_emulator/health',
    summary: 'Whether the emulator is up, and what it serves',
    output: () => z.object({
      status: z.literal('ok'),
      now: z.string(),
      uptimeSeconds: z.number().int(),
      schemaVersion: z.number().int(),
      fixture: z.string(),
      database: z.enum(['file', 'memory']),
      operations: z.number().int(),
    }),
    handler: (emu) => ({
      status: 'ok',
      now: iso(emu.clock.now()),
      uptimeSeconds: Math.round((Date.now() - emu.startedAt) / 1000),
      schemaVersion: schemaVersion(),
      fixture: emu.fixtureName,
      database: emu.options.db && emu.options.db !== ':memory:' ? 'file' : 'memory',
      operations: emu.ops.length,
    }),
  }),
  defineControlRoute({
    method: 'POST',
    path: '/_emulator/reset',
    summary: 'Put the data back as the fixture made it; clears fault rules and rate budgets',
    output: () => z.object({ status: z.literal('reset'), fixture: z.string(), now: z.string() }),
    refusals: { 409: ['CONFLICT'] },
    handler: (emu) => {
      try {
        emu.fixtureImage.reset(emu.db, emu.fixture, emu.clock.now());
      } catch (e) {
        // An edited fixture directory that no longer loads: refused, the data stays as it was.
        if (e instanceof FixtureError) throw new ApiError(409, 'CONFLICT', `${e.message}. Nothing was reset.`, { issues: e.issues });
        throw e;
      }
      emu.faults.clear();
      emu.limiter.clear();
      return { status: 'reset', fixture: emu.fixtureName, now: iso(emu.clock.now()) };
    },
  }),
  // A member's default Tasks grid view (saved view isDefault): the app's choice, with no v3 route.
  defineControlRoute({
    method: 'PUT',
    path: '/_emulator/my-work/default-view',
    summary: "Set a member's default Tasks grid view",
    body: defaultViewBody,
    output: () => z.object({ memberId: z.number().int(), viewKey: z.string() }),
    refusals: { ...BAD_BODY, 404: ['NOT_FOUND'] },
    handler: (emu, { body: b }) => emu.db.transaction(() => setDefaultView(emu.db, b.memberId, b.viewKey))(),
  }),
  defineControlRoute({
    method: 'GET',
    path: '/_emulator/clock',
    summary: 'Read the emulator clock',
    output: clockOutput,
    handler: (emu) => clockState(emu),
  }),
  defineControlRoute({
    method: 'PUT',
    path: '/_emulator/clock',
    summary: 'Set the emulator clock, and freeze or unfreeze it',
    body: clockBody,
    output: clockOutput,
    refusals: BAD_BODY,
    handler: (emu, { body: b }) => {
      if (b.now === undefined && b.frozen === undefined) throw validationError('Send now (ISO 8601 date-time) and/or frozen (boolean).', 'now');
      const ms = b.now === undefined ? emu.clock.now() : parseInstant(b.now, 'now');
      emu.clock.set(ms, b.frozen ?? emu.clock.frozen);
      return afterDueWork(emu);
    },
  }),
  defineControlRoute({
    method: 'POST',
    path: '/_emulator/clock/advance',
    summary: 'Move the emulator clock forward',
    body: advanceBody,
    output: clockOutput,
    refusals: BAD_BODY,
    handler: (emu, { body: b }) => {
      const ms = (b.seconds ?? 0) * 1000 + (b.minutes ?? 0) * 60_000 + (b.hours ?? 0) * 3_600_000 + (b.days ?? 0) * 86_400_000;
      if (b.seconds === undefined && b.minutes === undefined && b.hours === undefined && b.days === undefined) {
        throw validationError('Send at least one of seconds, minutes, hours, days (numbers of 0 or more).', 'seconds');
      }
      if (ms > MAX_ADVANCE_MS || emu.clock.now() + ms > MAX_MS) throw validationError('That would move the clock past the year 9999.', 'days');
      emu.clock.advance(Math.round(ms));
      return afterDueWork(emu);
    },
  }),
  defineControlRoute({
    method: 'GET',
    path: '/_emulator/journal',
    summary: 'The last requests, newest first',
    query: {
      limit: { description: 'How many entries, 1 to the capacity (default 100).', schema: { type: 'integer', minimum: 1 } },
      console: { description: "true: the web console's own requests too.", schema: { type: 'boolean' } },
    },
    output: () => z.object({ items: z.array(journalEntry()), capacity: z.number().int() }),
    refusals: { 400: ['VALIDATION_ERROR'] },
    handler: (emu, { url }) => {
      const raw = url.searchParams.get('limit');
      let limit = 100;
      if (raw !== null) {
        if (!/^\s*\d+\s*$/.test(raw) || Number(raw) < 1) throw validationError(`limit must be a whole number from 1 to ${emu.journal.capacity}.`, 'limit');
        limit = Math.min(Number(raw), emu.journal.capacity);
      }
      // The console's own requests (/app) only with ?console=true, so a test's journal stays its own.
      const withConsole = url.searchParams.get('console');
      if (withConsole !== null && withConsole !== 'true' && withConsole !== 'false') throw validationError('console must be true or false.', 'console');
      return { items: emu.journal.last(limit, withConsole === 'true'), capacity: emu.journal.capacity };
    },
  }),
  defineControlRoute({
    method: 'DELETE',
    path: '/_emulator/journal',
    summary: 'Empty the journal',
    noContent: true,
    handler: (emu) => {
      emu.journal.clear();
    },
  }),
  defineControlRoute({
    method: 'GET',
    path: '/_emulator/export',
    summary: 'The whole database as a SQLite file',
    binary: { answer: 'application/vnd.sqlite3' },
    handler: (emu) => {
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
  }),
  defineControlRoute({
    method: 'POST',
    path: '/_emulator/import',
    summary: 'Replace the data with an exported SQLite file',
    binary: { request: 'application/vnd.sqlite3' },
    output: () => z.object({ status: z.literal('imported'), tables: z.number().int(), rows: z.number().int() }),
    refusals: { 400: ['VALIDATION_ERROR'], 413: ['PAYLOAD_TOO_LARGE'] },
    handler: async (emu, { req }) => {
      // Streamed to a temporary file (never held in memory); the header is checked in the
      // first bytes, so junk is refused at once (docs/security.md "Big or hostile bodies").
      const dir = emu.temp.make('import-'); // under the server's own directory, swept at start (docs/reliability.md 11)
      try {
        const file = join(dir, 'import.sqlite');
        await streamBodyToFile(req, file, emu.options.maxImportBytes ?? DEFAULT_MAX_IMPORT_BYTES, 'The database file', 16, (head) => {
          if (!isSqliteHeader(head) || head.length < 16) throw notSqlite();
        });
        const out = importDatabaseFile(emu.db, file);
        emu.limiter.clear();
        return { status: 'imported', ...out };
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  }),
];

/** The extension (src/extensions.ts): the routes above, and the control API's own OpenAPI document. */
export function installControl(_emu: Emulator, ext: AppExtensions): void {
  let doc: string | undefined;
  const openapi = defineControlRoute({
    method: 'GET',
    path: '/_emulator/openapi.json',
    summary: 'This document: the control API, generated from its route declarations',
    output: () => z.record(z.string(), z.unknown()),
    handler: (emu) => {
      // Built on first use, when every area has declared its routes (instances install after this one).
      doc ??= JSON.stringify(controlOpenApi(declaredControlRoutes(ext.routes).filter((r) => r.path !== '/_emulator/openapi.json'), emu.baseUrls));
      return new Response(doc, { status: 200, headers: { 'Content-Type': JSON_TYPE } });
    },
  });
  for (const r of [...controlRoutes, overviewRoute, openapi]) ext.routes.push(controlRouteSpec(r as ControlRoute));
}
