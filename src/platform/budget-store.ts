// Rate-budget counters survive a restart within the hour (spec v3 8: a window is
// per workspace, not per process) without a SQLite write per request: the hot
// counters stay in memory and are saved to `settings` every few seconds when
// they moved, and once more on close.
import type { Db } from '../store/open';
import type { RateLimiter } from './ratelimit';

const NAME = 'platform.rateBudgets';

export class BudgetStore {
  private saved = -1;
  private timer: NodeJS.Timeout | undefined;
  private readonly read;
  private readonly write;

  constructor(private readonly db: Db, private readonly limiter: RateLimiter, private readonly now: () => number) {
    this.read = db.prepare<[string], { value: string }>('SELECT value FROM settings WHERE name = ?');
    this.write = db.prepare<[string, string]>('INSERT INTO settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value');
  }

  /** Loads the counters of windows that are still current. */
  load(): void {
    const row = this.read.get(NAME);
    if (!row) return;
    try {
      const all = JSON.parse(row.value) as Record<string, { window: number; used: number }>;
      const current = Math.floor(this.now() / 3_600_000) * 3_600_000;
      this.limiter.restore(Object.fromEntries(Object.entries(all).filter(([, v]) => v && v.window === current)));
      this.saved = this.limiter.version;
    } catch {
      // A damaged row only loses the current window's counts.
    }
  }

  flush(): void {
    if (this.limiter.version === this.saved || !this.db.open) return;
    this.write.run(NAME, JSON.stringify(this.limiter.snapshot()));
    this.saved = this.limiter.version;
  }

  start(intervalMs = 5_000): void {
    this.timer = setInterval(() => {
      try {
        this.flush();
      } catch {
        // Busy file database: try again next tick.
      }
    }, intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    try {
      this.flush();
    } catch {
      // Closing anyway.
    }
  }
}
