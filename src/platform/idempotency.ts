// Idempotency-Key (spec v3 4.1 rule 12, 4.6 rule 4, 8): stored in SQLite, scoped to
// the workspace and the key. Two steps:
//  1. claim: a short transaction of its own records the key as `running`, so another
//     process sharing a file database (`wfe serve` and `wfe mcp`) sees it in flight;
//  2. the write: the handler's transaction also records the answer (`done`), so a
//     committed write always has its replay, and a failed one has none.
// Refusals are not stored: a refused write changed nothing, so the key is released
// and the client may retry it (docs/platform.md).
import type { Ctx } from '../context';
import type { Db } from '../store/open';
import { selectList, type RowOf } from '../store/columns';
import { idempotencyTable } from '../store/tables/platform';
import type { Operation } from '../operations/define';
import type { Outcome } from './idempotency-types';
import { conflict, validationError } from '../errors';
import { sha256 } from '../ids';
import type { IdempotencyStore } from './idempotency-types';

export const IDEMPOTENCY_WINDOW_MS = 24 * 3_600_000;
/** A claim older than this (clock time) was left by a process that died mid-request. */
export const ABANDONED_CLAIM_MS = 60_000;
export const MAX_KEY_LENGTH = 255;

/** What a claim is judged by: the row but its key (store/tables/platform.ts). */
const CLAIM_COLUMNS = ['fingerprint', 'state', 'status', 'body', 'headers', 'created_at'] as const;
type Row = Pick<RowOf<typeof idempotencyTable.columns>, (typeof CLAIM_COLUMNS)[number]>;

/** JSON with object keys sorted, so {a,b} and {b,a} are the same request. */
export function canonicalJson(v: unknown): string {
  if (v === undefined) return 'null';
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  const keys = Object.keys(v as object)
    .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((v as Record<string, unknown>)[k])}`).join(',')}}`;
}

/** Same operation, same validated input, same API key: the same request. */
export const fingerprintOf = (op: Operation, input: Record<string, unknown>, apiKeyId: number): string =>
  sha256(`${op.id}\n${apiKeyId}\n${canonicalJson(input)}`);

/** Validates the key; `field` is the header for REST, the argument for MCP. */
export function checkIdempotencyKey(key: string, field: string): void {
  if (key.length === 0 || key.trim() === '') throw validationError(`${field} must not be empty.`, field);
  if (key.length > MAX_KEY_LENGTH) throw validationError(`${field} must be at most ${MAX_KEY_LENGTH} characters (got ${key.length}).`, field);
}

export class SqliteIdempotencyStore implements IdempotencyStore {
  private readonly get;
  private readonly claim;
  private readonly finish;
  private readonly release;
  private readonly sweep;
  private lastSweep = -Infinity;

  constructor(private readonly db: Db) {
    this.get = db.prepare<[number, string], Row>(`SELECT ${selectList(idempotencyTable, CLAIM_COLUMNS)} FROM idempotency WHERE workspace_id = ? AND key = ?`);
    this.claim = db.prepare<[number, string, string, number]>(
      `INSERT INTO idempotency (workspace_id, key, fingerprint, state, status, body, headers, created_at) VALUES (?, ?, ?, 'running', NULL, NULL, NULL, ?)
       ON CONFLICT (workspace_id, key) DO UPDATE SET fingerprint = excluded.fingerprint, state = 'running', status = NULL, body = NULL, headers = NULL, created_at = excluded.created_at`,
    );
    this.finish = db.prepare<[number, string | null, string | null, number, string, string]>(
      "UPDATE idempotency SET state = 'done', status = ?, body = ?, headers = ? WHERE workspace_id = ? AND key = ? AND fingerprint = ?",
    );
    this.release = db.prepare<[number, string, string]>("DELETE FROM idempotency WHERE workspace_id = ? AND key = ? AND fingerprint = ? AND state = 'running'");
    this.sweep = db.prepare<[number]>('DELETE FROM idempotency WHERE created_at < ?');
  }

  /** `field`: where the key travelled (the header, or MCP's argument), named by a refusal of it. */
  run(ctx: Ctx, op: Operation, input: Record<string, unknown>, key: string, field: string, execute: () => Outcome): Outcome {
    checkIdempotencyKey(key, field);
    const ws = ctx.workspace.id;
    const fp = fingerprintOf(op, input, ctx.actor.key?.id ?? 0); // only a request sends an Idempotency-Key, and it has its key
    const now = ctx.now();

    const replay = this.db
      .transaction((): Outcome | null => {
        if (now - this.lastSweep > 3_600_000) {
          this.sweep.run(now - IDEMPOTENCY_WINDOW_MS);
          this.lastSweep = now;
        }
        const row = this.get.get(ws, key);
        if (row && now - row.created_at < IDEMPOTENCY_WINDOW_MS) {
          if (row.fingerprint !== fp) {
            throw conflict(`The idempotency key '${short(key)}' was used within the last 24 hours for a different request. Send a new key for a new request.`);
          }
          if (row.state === 'done') {
            const headers = row.headers ? (JSON.parse(row.headers) as Record<string, string>) : {};
            return {
              status: row.status ?? 200,
              body: row.body === null ? undefined : JSON.parse(row.body),
              headers: { ...headers, 'Idempotent-Replayed': 'true' },
              replay: true,
            };
          }
          if (now - row.created_at < ABANDONED_CLAIM_MS) {
            throw conflict(`A request with the idempotency key '${short(key)}' is still running. Retry when it has finished to receive its answer.`);
          }
        }
        this.claim.run(ws, key, fp, now);
        return null;
      })
      .immediate();
    if (replay) return replay;

    try {
      return this.db.transaction(() => {
        const out = execute();
        this.finish.run(out.status, out.body === undefined ? null : JSON.stringify(out.body), Object.keys(out.headers).length ? JSON.stringify(out.headers) : null, ws, key, fp);
        return out;
      })();
    } catch (e) {
      this.release.run(ws, key, fp);
      throw e;
    }
  }
}

const short = (key: string) => (key.length > 60 ? key.slice(0, 57) + '...' : key);
