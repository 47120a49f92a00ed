// The upgrade worker (spec v3 3 "Checklist upgrade": queued, then rebuilt by a background
// worker; docs/upgrades.md). Like the webhook sender it never runs inside a request: the
// 202 writes queue rows, the worker is woken after the write and also polls, and a row is
// due when the emulator clock reaches its run_at, so moving the clock with /_emulator
// drives it. One template at a time; one checklist per transaction, so a crash or SIGKILL
// leaves every unfinished rebuild queued for the next start.
import type { Emulator } from '../emulator';
import { ClockWorker } from '../platform/clock-worker';
import { recordActivity } from '../domain/activity';
import { checklistById } from '../domain/checklists/lookup';
import { rebuildChecklist } from '../domain/upgrades/rebuild';
import type { ResolvedUpgradeOptions } from './options';
import { workerCtx, type JobRow } from './context';

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

  tick(): void {
    if (this.stopped || this.paused || !this.emu.db.open) return;
    try {
      this.runDue();
    } catch (e) {
      this.emu.log(`upgrades: the worker failed unexpectedly: ${e instanceof Error ? e.stack : String(e)}`);
    }
  }

  /**
   * Rebuilds every due checklist, one template at a time: the template of the oldest due
   * rebuild, all of its due rebuilds in queue order, then the next template. Returns how many ran.
   */
  runDue(): number {
    const db = this.emu.db;
    let ran = 0;
    for (;;) {
      if (this.stopped || !db.open) return ran;
      const now = this.emu.clock.now();
      const first = db.prepare<[number], { template_id: number }>("SELECT template_id FROM upgrade_jobs WHERE state = 'queued' AND run_at <= ? ORDER BY run_at, id LIMIT 1").get(now);
      if (!first) return ran;
      const jobs = db
        .prepare<[number, number], JobRow>("SELECT * FROM upgrade_jobs WHERE state = 'queued' AND run_at <= ? AND template_id = ? ORDER BY run_at, id")
        .all(now, first.template_id);
      for (const j of jobs) {
        this.runJob(j.id);
        ran++;
      }
    }
  }

  private runJob(jobId: number): void {
    const db = this.emu.db;
    let injected: string | undefined;
    db.transaction(() => {
      const job = db.prepare<[number], JobRow>('SELECT * FROM upgrade_jobs WHERE id = ?').get(jobId);
      if (!job || job.state !== 'queued') return;
      const c = checklistById({ db }, job.checklist_id);
      const now = this.emu.clock.now();
      if (!c) {
        db.prepare("UPDATE upgrade_jobs SET state = 'failed', error = 'the checklist no longer exists', finished_at = ? WHERE id = ?").run(now, job.id);
        return;
      }
      const ctx = workerCtx(this.emu, c, job);
      injected = this.failures.get(c.key.toLowerCase());
      try {
        // A savepoint: a failing rebuild rolls back to here, and the failure is recorded below.
        db.transaction(() => rebuildChecklist(ctx, c, job.target_version, { failWith: injected }))();
        db.prepare("UPDATE upgrade_jobs SET state = 'done', finished_at = ? WHERE id = ?").run(now, job.id);
      } catch (e) {
        const why = e instanceof Error ? e.message : String(e);
        db.prepare('UPDATE checklists SET rebuilding = 0 WHERE id = ?').run(c.id);
        recordActivity(ctx, {
          checklistId: c.id,
          action: 'checklist.upgrade_failed',
          text: `The upgrade to version ${job.target_version} of the template failed, and the checklist was left unchanged on version ${c.template_version}: ${why}`,
          data: { fromVersion: c.template_version, toVersion: job.target_version, error: why },
        });
        db.prepare("UPDATE upgrade_jobs SET state = 'failed', error = ?, finished_at = ? WHERE id = ?").run(why, now, job.id);
        if (injected === undefined) this.emu.log(`upgrades: rebuilding checklist ${c.key} on version ${job.target_version} failed: ${e instanceof Error ? e.stack : why}`);
      }
      if (injected !== undefined) this.failures.delete(c.key.toLowerCase());
      this.emu.changes.touch(c.workspace_id);
    })();
  }
}
