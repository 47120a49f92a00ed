// The upgrade worker (spec v3 3 "Checklist upgrade": queued, then rebuilt by a background
// worker; docs/upgrades.md). Like the webhook sender it never runs inside a request: the
// 202 writes queue rows, the worker is woken after the write and also polls, and a row is
// due when the emulator clock reaches its run_at, so moving the clock with /_emulator
// drives it. One template at a time, in slices of about 20 ms, each one transaction, yielding
// to requests between them (src/platform/slices.ts); a crash or SIGKILL leaves every rebuild
// of an unfinished slice queued for the next start.
import type { Emulator } from '../emulator';
import { ClockWorker } from '../platform/clock-worker';
import { recordActivity } from '../domain/activity';
import { checklistById } from '../domain/checklist-lookup';
import { rebuildChecklist } from '../domain/upgrades/rebuild';
import type { ResolvedUpgradeOptions } from './options';
import { workerCtx } from './context';
import { failJob, finishJob, firstDueJob, upgradeJobById } from '../rows/upgrade-jobs';
import { clearRebuilding } from '../rows/checklists';
import { runInSlices, sliceSpent, yieldToRequests } from '../platform/slices';

export class UpgradeWorker extends ClockWorker {
  /** Injected failures (tests): checklist key (lower case) → message of the next rebuild's failure. */
  private readonly failures = new Map<string, string>();

  constructor(
    private readonly emu: Emulator,
    readonly options: ResolvedUpgradeOptions,
  ) {
    super(options.pollMs);
  }

  stop(): void {
    this.halt();
  }

  /** The next rebuild of this checklist fails with `message` and leaves it unchanged. */
  injectFailure(checklistKey: string, message: string): void {
    this.failures.set(checklistKey.toLowerCase(), message);
  }

  clearFailures(): void {
    this.failures.clear();
  }

  get injectedFailures(): { checklistKey: string; message: string }[] {
    return [...this.failures].map(([checklistKey, message]) => ({ checklistKey, message }));
  }

  /** The background run in progress, if any: one at a time. */
  private running?: Promise<number>;
  /** The template whose due rebuilds are being worked through (one template at a time). */
  private template?: number;

  tick(): void {
    if (this.stopped || this.paused || !this.emu.db.open || this.running) return;
    this.running = this.runSliced()
      .catch((e) => {
        this.emu.log(`upgrades: the worker failed unexpectedly: ${e instanceof Error ? e.stack : String(e)}`);
        return 0;
      })
      .finally(() => (this.running = undefined));
  }

  /** Every due rebuild, a slice at a time, yielding between slices. Resolves with how many ran. */
  private async runSliced(): Promise<number> {
    let ran = 0;
    for (;;) {
      if (this.stopped || this.paused || !this.emu.db.open) return ran;
      const n = this.slice();
      if (n === 0) return ran;
      ran += n;
      await yieldToRequests();
    }
  }

  /**
   * Rebuilds every due checklist (POST /_emulator/upgrades/run: even while paused, answered
   * when done), in slices that yield between them like the background run. Returns how many ran.
   */
  async runDue(): Promise<number> {
    await this.running;
    return runInSlices(() => this.slice(), () => !this.stopped && this.emu.db.open);
  }

  /**
   * One slice: due rebuilds in one transaction until SLICE_MS has passed, one template at a
   * time (the template of the oldest due rebuild, all of its due rebuilds in queue order, then
   * the next). Each rebuild is a savepoint inside it. Returns how many ran.
   */
  private slice(): number {
    const db = this.emu.db;
    const started = performance.now();
    let ran = 0;
    db.transaction(() => {
      do {
        const job = this.nextJob();
        if (!job) return;
        this.runJob(job);
        ran++;
      } while (!sliceSpent(started));
    })();
    return ran;
  }

  private nextJob(): number | undefined {
    const db = this.emu.db;
    const now = this.emu.clock.now();
    if (this.template !== undefined) {
      const same = firstDueJob(db, now, this.template);
      if (same) return same.id;
    }
    const first = firstDueJob(db, now);
    this.template = first?.template_id;
    return first?.id;
  }

  private runJob(jobId: number): void {
    const db = this.emu.db;
    let injected: string | undefined;
    db.transaction(() => {
      const job = upgradeJobById(db, jobId);
      if (!job || job.state !== 'queued') return;
      const c = checklistById({ db }, job.checklist_id);
      const now = this.emu.clock.now();
      if (!c) {
        failJob(db, job.id, 'the checklist no longer exists', now);
        return;
      }
      const ctx = workerCtx(this.emu, c, job);
      injected = this.failures.get(c.key.toLowerCase());
      try {
        // A savepoint: a failing rebuild rolls back to here, and the failure is recorded below.
        db.transaction(() => rebuildChecklist(ctx, c, job.target_version, { failWith: injected }))();
        finishJob(db, job.id, now);
      } catch (e) {
        const why = e instanceof Error ? e.message : String(e);
        clearRebuilding(db, c.id);
        recordActivity(ctx, {
          checklistId: c.id,
          action: 'checklist.upgrade_failed',
          text: `The upgrade to version ${job.target_version} of the template failed, and the checklist was left unchanged on version ${c.template_version}: ${why}`,
          data: { fromVersion: c.template_version, toVersion: job.target_version, error: why },
        });
        failJob(db, job.id, why, now);
        if (injected === undefined) this.emu.log(`upgrades: rebuilding checklist ${c.key} on version ${job.target_version} failed: ${e instanceof Error ? e.stack : why}`);
      }
      if (injected !== undefined) this.failures.delete(c.key.toLowerCase());
      this.emu.changes.touch(c.workspace_id);
    })();
  }
}
