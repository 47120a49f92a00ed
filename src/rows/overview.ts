// What the emulator panel's overview counts (src/control/overview.ts): the workspaces, the
// webhook deliveries by workspace and status, and the database's size.
import type { Db } from '../store/open';
import type { WorkspaceRow } from './people';

/** What the overview shows of a workspace row. */
export type WorkspaceBrief = Pick<WorkspaceRow, 'id' | 'key' | 'name' | 'region'>;

export const workspaceBriefs = (db: Db): WorkspaceBrief[] => db.prepare<[], WorkspaceBrief>('SELECT id, key, name, region FROM workspaces ORDER BY id').all();

/** Deliveries per workspace and status; `retrying`: pending ones with at least one failed attempt. */
export const deliveryCounts = (db: Db): { workspace_id: number; status: string; n: number; retrying: number }[] =>
  db
    .prepare<[], { workspace_id: number; status: string; n: number; retrying: number }>(
      'SELECT e.workspace_id, d.status, COUNT(*) AS n, SUM(d.attempts > 0) AS retrying FROM deliveries d JOIN events e ON e.id = d.event_id GROUP BY e.workspace_id, d.status',
    )
    .all();

/** The database's size: pages in use and free, and the page size (bytes). */
export function databaseSize(db: Db): { pages: number; freePages: number; pageSize: number } {
  const one = (pragma: string) => db.pragma(pragma, { simple: true }) as number;
  return { pages: one('page_count'), freePages: one('freelist_count'), pageSize: one('page_size') };
}
