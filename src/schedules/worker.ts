// The scheduler (docs/schedules.md "The clock"): polls the emulator clock, like the
// webhook sender, and starts every run whose instant has passed, oldest first, in
// slices of about 20 ms (each one IMMEDIATE transaction, yielding between them). Each
// run is a savepoint that first re-reads it as still upcoming, so a run starts exactly
// once: across ticks, across restarts (the state is in SQLite) and across two
// processes sharing one database file.
import type { Emulator } from '../emulator';
import { makeContext, workspaceActor, type Ctx } from '../context';
import { memberById, workspaceById } from '../rows/people';
import { newToken } from '../ids';
import { dueRuns, failUpcomingRun, stillDue } from '../rows/schedules';
import { startRun } from '../domain/schedules/plan';
import { isBusy, storageCode } from '../errors';
import { runInSlices, sliceSpent } from '../platform/slices';

/** Real milliseconds between looks at the clock. */
export const POLL_MS = 50;


export class ScheduleWorker {
  private timer?: NodeJS.Timeout;
  private stopped = false;

  constructor(private readonly emu: Emulator) {}

  start(): void {
    this.timer = setInterval(() => void this.tick(), POLL_MS);
    this.timer.unref();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
  }

  /** The context runs start under: the workspace key's (5.9), no request behind it. */
  private ctxFor(workspaceId: number): Ctx {
    const db = this.emu.db;
    const workspace = workspaceById(db, workspaceId)!;
    const actor = workspaceActor(memberById(db, workspace.anonymous_member_id ?? -1)!);
    return makeContext(this.emu, { requestId: `req_${newToken(16)}`, workspace, actor, timeZone: 'UTC', transport: 'scheduler' });
  }

  /** The catch-up in progress, if any: one at a time. */
  private running?: Promise<number>;

  /**
   * Starts every due run, oldest first, in slices (src/platform/slices.ts): a clock moved by
   * years starts its thousands of runs without stalling requests. Resolves with how many started.
   */
  tick(): Promise<number> {
    if (this.stopped || !this.emu.db.open) return Promise.resolve(0);
    this.running ??= this.catchUp().finally(() => (this.running = undefined));
    return this.running;
  }

  private async catchUp(): Promise<number> {
    const slice = (): number => {
      try {
        return this.slice();
      } catch (e) {
        // A busy database (another process holds the write lock) or a bug: try again next tick.
        this.emu.log(`schedules: starting due runs failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
        return 0;
      }
    };
    return runInSlices(slice, () => !this.stopped && this.emu.db.open);
  }

  /** One slice: due runs started in one transaction until SLICE_MS has passed; each run a savepoint. */
  private slice(): number {
    const db = this.emu.db;
    const began = performance.now();
    let started = 0;
    db.transaction(() => {
      for (;;) {
        const now = this.emu.clock.now();
        const due = dueRuns(db, now, 50);
        if (due.length === 0) return;
        for (const d of due) {
          const ctx = this.ctxFor(d.workspace_id);
          try {
            db.transaction(() => {
              if (stillDue(db, d.id, now)) startRun(ctx, d.id, false);
            })();
            this.emu.changes.touch(d.workspace_id);
          } catch (e) {
            if (isBusy(e) || storageCode(e)) throw e; // the disk, not the run: tried again on the next tick
            // A bug must not stop the other runs nor be retried forever: the run fails, visibly.
            this.emu.log(`schedules: run ${d.id} could not start: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
            failUpcomingRun(db, d.id, 'The emulator failed to start this run (a bug in the emulator; see its log).');
          }
          started++;
          if (sliceSpent(began)) return;
        }
      }
    })();
    return started;
  }
}
