// Webhook deliveries (`deliveries` rows): one attempt series of one event to one target.
import type { Db } from '../store/open';

/** Deliveries still to be sent (the sender's backlog). */
export const pendingDeliveryCount = (db: Db): number => db.prepare<[], { n: number }>("SELECT COUNT(*) AS n FROM deliveries WHERE status = 'pending'").get()!.n;
