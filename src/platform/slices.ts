// Background work (the upgrade worker, the scheduler's catch-up) runs in slices: each
// slice is one transaction of about SLICE_MS, and the worker yields to the event loop
// between slices (never inside one), so a request of the same process waits no more
// than about one slice behind it, and another process sharing the file waits no more
// than one slice for the write lock (docs/reliability.md "Background work").

/** How long one slice of background work may run before it commits and yields. */
export const SLICE_MS = 20;

/** Lets the requests that arrived meanwhile run: the next slice starts after them. */
export const yieldToRequests = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Whether a slice started at `started` (performance.now()) has used its time. */
export const sliceSpent = (started: number, budgetMs = SLICE_MS): boolean => performance.now() - started >= budgetMs;

/**
 * Runs `slice` again and again, yielding between slices, until one does no work or `goOn`
 * turns false (the worker stopped, the database closed). Returns how much work was done.
 */
export async function runInSlices(slice: () => number, goOn: () => boolean): Promise<number> {
  let done = 0;
  while (goOn()) {
    const n = slice();
    if (n === 0) break;
    done += n;
    await yieldToRequests();
  }
  return done;
}
