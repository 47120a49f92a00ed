// Platform state every emulator carries, whichever transport runs it (serve and
// `wfe mcp` alike): idempotency over SQLite and persisted rate-budget counters.
import type { Emulator } from '../emulator';
import { SqliteIdempotencyStore } from './idempotency';
import { BudgetStore } from './budget-store';

export function installPlatform(emu: Emulator): void {
  emu.idempotency = new SqliteIdempotencyStore(emu.db);
  const budgets = new BudgetStore(emu.db, emu.limiter, () => emu.clock.now());
  budgets.load();
  budgets.start();
  emu.closers.push(() => budgets.stop());
}
