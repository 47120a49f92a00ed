// Webhook deliveries (`deliveries` rows): one attempt series of one event to one target.
import type { Db } from '../store/open';

/** Deliveries still to be sent (the sender's backlog). */
export const pendingDeliveryCount = (db: Db): number => db.prepare<[], { n: number }>("SELECT COUNT(*) AS n FROM deliveries WHERE status = 'pending'").get()!.n;

/** Deliveries whose next attempt is due at `now` or before. */
export const dueDeliveryCount = (db: Db, now: number): number =>
  db.prepare<[number], { n: number }>("SELECT COUNT(*) AS n FROM deliveries WHERE status = 'pending' AND next_attempt_at <= ?").get(now)!.n;
