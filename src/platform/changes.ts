// Which workspace's data changed, for the console's change feed (src/console/live.ts).
// SQLite's total_changes() moves on every write of the emulator's connection (the rate
// counters' flush and webhook deliveries included) and says nothing of whose data it
// was, so a page following it would re-read on every write anywhere, and learn that
// other workspaces are busy. Writers that change what a page shows say so here instead:
// the request path (a write operation that changed rows), the schedule and upgrade
// workers, and, for everyone at once, a reset, an import, or another process writing
// the same file (PRAGMA data_version).
export class ChangeSignals {
  private readonly counts = new Map<number, number>();
  /** Moves for changes no single workspace owns (reset, import, another process's writes). */
  private everyone = 0;

  touch(workspaceId: number): void {
    this.counts.set(workspaceId, (this.counts.get(workspaceId) ?? 0) + 1);
  }

  everything(): void {
    this.everyone++;
  }

  /** A number that moves whenever data of the workspace changed (or everyone's did). */
  stamp(workspaceId: number): number {
    return (this.counts.get(workspaceId) ?? 0) + this.everyone;
  }
}
