// The scheduler (docs/schedules.md "The clock"): polls the emulator clock, like the
// webhook sender, and starts every run whose instant has passed, oldest first. Each
// run starts in its own IMMEDIATE transaction that first re-reads it as still
// upcoming, so a run starts exactly once: across ticks, across restarts (the state
// is in SQLite) and across two processes sharing one database file.
import type { Emulator } from '../emulator';
import type { Ctx } from '../context';
import type { KeyRow, MemberRow, WorkspaceRow } from '../domain/people/rows';
import { newToken } from '../ids';
import { dueRuns, stillDue } from '../domain/schedules/due';
import { startRun } from '../domain/schedules/plan';

/** Real milliseconds between looks at the clock. */
export const POLL_MS = 50;
/** Runs started per tick at most: a clock moved by a century must not stall the server. */
const PER_TICK = 500;

const isBusy = (e: unknown) => typeof e === 'object' && e !== null && /^SQLITE_BUSY/.test(String((e as { code?: unknown }).code));

export class ScheduleWorker {
  private timer?: NodeJS.Timeout;
  private stopped = false;

  constructor(private readonly emu: Emulator) {}

  start(): void {
    this.timer = setInterval(() => this.tick(), POLL_MS);
    this.timer.unref();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
  }

  /** The context runs start under: the workspace key's (5.9), no request behind it. */
  private ctxFor(workspaceId: number): Ctx {
    const db = this.emu.db;
    const workspace = db.prepare<[number], WorkspaceRow>('SELECT * FROM workspaces WHERE id = ?').get(workspaceId)!;
    const member = db.prepare<[number], MemberRow>('SELECT * FROM members WHERE id = ?').get(workspace.anonymous_member_id ?? -1)!;
    const key: KeyRow = { id: 0, workspace_id: workspaceId, name: 'scheduler', key_hash: '', member_id: null, expires_on: null, revoked_at: null, created_at: 0 };
    const base = this.emu.baseUrls[workspace.region];
    return {
      db,
      clock: this.emu.clock,
      requestId: `req_${newToken(16)}`,
      workspace,
      actor: { kind: 'workspace', member, key, isAdmin: false, rights: new Set() },
      timeZone: 'UTC',
      baseUrl: base,
      appUrl: base,
      transport: 'rest',
      hooks: this.emu.hooks,
      now: () => this.emu.clock.now(),
    };
  }

  /** Starts every due run (tests may call it to skip the wait for the next poll). Returns how many started. */
  tick(): number {
    if (this.stopped || !this.emu.db.open) return 0;
    const db = this.emu.db;
    let started = 0;
    try {
      while (started < PER_TICK) {
        const now = this.emu.clock.now();
        const due = dueRuns(db, now, Math.min(50, PER_TICK - started));
        if (due.length === 0) break;
        for (const d of due) {
          const ctx = this.ctxFor(d.workspace_id);
          try {
            db.transaction(() => {
              if (stillDue(db, d.id, now)) startRun(ctx, d.id, false);
            }).immediate();
            this.emu.changes.touch(d.workspace_id);
          } catch (e) {
            if (isBusy(e)) throw e; // another process holds the write lock: next tick
            // A bug must not stop the other runs nor be retried forever: the run fails, visibly.
            this.emu.log(`schedules: run ${d.id} could not start: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
            db.prepare("UPDATE schedule_runs SET status = 'Failed', reason = ? WHERE id = ? AND status = 'Upcoming'").run('The emulator failed to start this run (a bug in the emulator; see its log).', d.id);
          }
          started++;
        }
      }
    } catch (e) {
      // A busy database (another process holds the write lock) or a bug: try again next tick.
      this.emu.log(`schedules: starting due runs failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    }
    return started;
  }
}
