// One clock for everything: timestamps, rate windows, key expiry, due dates,
// snoozes, schedules, webhook retries. Real by default; /_emulator/clock sets it.
export class Clock {
  private offsetMs = 0;
  private frozenAt: number | null = null;

  now(): number {
    return this.frozenAt ?? Date.now() + this.offsetMs;
  }
  /** Move the clock to `ms`; frozen clocks stay there until moved again. */
  set(ms: number, frozen = false): void {
    if (frozen) {
      this.frozenAt = ms;
    } else {
      this.frozenAt = null;
      this.offsetMs = ms - Date.now();
    }
  }
  advance(ms: number): void {
    if (this.frozenAt !== null) this.frozenAt += ms;
    else this.offsetMs += ms;
  }
  reset(): void {
    this.offsetMs = 0;
    this.frozenAt = null;
  }
  get frozen(): boolean {
    return this.frozenAt !== null;
  }
  /** How far a running clock is from real time (what a set or an advance moved). */
  get offset(): number {
    return this.offsetMs;
  }
}

/** Output dates are always UTC ending Z (spec v3 4.1 rule 6). */
export const iso = (ms: number | null | undefined): string | undefined =>
  ms === null || ms === undefined ? undefined : new Date(ms).toISOString();

/** Milliseconds in a day and an hour (UTC: days of 24 hours). */
export const DAY_MS = 86_400_000;
export const HOUR_MS = 3_600_000;
