// The loop every background worker shares (webhook sender, upgrade worker): it never
// runs inside a request; it polls, and is woken right after a write that gave it work,
// so moving the emulator clock drives it. Pausing is not persisted: a restarted
// emulator works again.
export abstract class ClockWorker {
  private timer?: NodeJS.Timeout;
  private scheduled = false;
  protected stopped = false;
  protected paused = false;

  constructor(private readonly pollMs: number) {}

  /** Does what is due now. */
  abstract tick(): void;

  start(): void {
    this.timer = setInterval(() => this.safeTick(), this.pollMs);
    this.timer.unref();
    this.kick();
  }

  /** Wakes the worker soon (after the current transaction has committed). */
  kick(): void {
    if (this.scheduled || this.stopped) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.safeTick();
    });
  }

  /**
   * A tick that throws (the disk full, the file read-only or locked: docs/reliability.md 10)
   * must not end the process: the work stays in its rows and the next tick tries again.
   */
  private safeTick(): void {
    try {
      this.tick();
    } catch (e) {
      this.tickFailed(e);
    }
  }

  /** Reports a failed tick (workers log it); at most once a minute per worker, so a full disk does not flood the log. */
  protected tickFailed(e: unknown): void {
    const now = Date.now();
    if (now - this.lastReport < 60_000) return;
    this.lastReport = now;
    process.stderr.write(`wfe: background work failed, retrying on the next tick: ${e instanceof Error ? e.message : String(e)}\n`);
  }
  private lastReport = 0;

  pause(): void {
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
    this.kick();
  }

  get isPaused(): boolean {
    return this.paused;
  }

  /** Stops polling; subclasses that hold work in flight wait for it too. */
  protected halt(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
  }
}
