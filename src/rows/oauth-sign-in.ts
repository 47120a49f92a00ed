// What the OAuth sign-in page offers (docs/oauth.md "The sign-in page"): the workspaces of one
// region, and the members a session may act as in each (Administrators and Members who are
// active; spec v3 5.2: a key never acts as a Guest, and neither does a sign-in).
import type { Db } from '../store/open';
import type { MemberRow, WorkspaceRow } from './people';

export const workspacesOfRegion = (db: Db, region: 'US' | 'EU'): WorkspaceRow[] =>
  db.prepare<[string], WorkspaceRow>('SELECT * FROM workspaces WHERE region = ? ORDER BY name, id').all(region);

/** Members a sign-in may act as, by role (Administrators first) then name. */
export const signInMembers = (db: Db, workspaceId: number): MemberRow[] =>
  db
    .prepare<[number], MemberRow>(
      "SELECT * FROM members WHERE workspace_id = ? AND role IN ('Administrator','Member') AND is_active = 1 AND is_removed = 0 AND is_anonymous = 0 ORDER BY role = 'Member', coalesce(first_name, ''), coalesce(last_name, ''), id",
    )
    .all(workspaceId);
