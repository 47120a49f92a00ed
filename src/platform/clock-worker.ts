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
    this.timer = setInterval(() => this.tick(), this.pollMs);
    this.timer.unref();
    this.kick();
  }

  /** Wakes the worker soon (after the current transaction has committed). */
  kick(): void {
    if (this.scheduled || this.stopped) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.tick();
    });
  }

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
