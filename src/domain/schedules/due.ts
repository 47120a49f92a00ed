// Runs whose instant the emulator clock has reached (docs/schedules.md "The clock").
import type { Db } from '../../store/open';

export interface DueRun {
  id: number;
  workspace_id: number;
  scheduled_at: number;
}

/** Upcoming runs at or before `now`, oldest first, across every workspace. */
export const dueRuns = (db: Db, now: number, limit: number): DueRun[] =>
  db
    .prepare<[number, number], DueRun>(
      `SELECT r.id, s.workspace_id, r.scheduled_at FROM schedule_runs r JOIN schedules s ON s.id = r.schedule_id
        WHERE r.status = 'Upcoming' AND r.scheduled_at <= ? ORDER BY r.scheduled_at, r.id LIMIT ?`,
    )
    .all(now, limit);

/** Whether a run is still upcoming and due (read again inside the transaction that starts it). */
export const stillDue = (db: Db, runId: number, now: number): boolean =>
  db.prepare<[number, number], { n: number }>("SELECT COUNT(*) AS n FROM schedule_runs WHERE id = ? AND status = 'Upcoming' AND scheduled_at <= ?").get(runId, now)!.n === 1;
