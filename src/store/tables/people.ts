// Workspaces, people and API keys (schema.sql version 1): declarations (store/columns.ts).
import { col, table } from '../columns';

export const workspacesTable = table('workspaces', {
  id: col.id(),
  /** The teamId (a GUID). */
  key: col.text(),
  name: col.text(),
  region: col.oneOf<'US' | 'EU'>(),
  is_enterprise: col.intDefault(0),
  /** The member a workspace key acts through. */
  anonymous_member_id: col.intOrNull(),
  created_at: col.int(),
});

export const membersTable = table('members', {
  id: col.id(),
  workspace_id: col.int(),
  first_name: col.textOrNull(),
  last_name: col.textOrNull(),
  email: col.textOrNull(),
  role: col.oneOf<'Administrator' | 'Member' | 'Guest'>(),
  is_active: col.intDefault(1),
  is_anonymous: col.intDefault(0),
  /** Left the workspace: keeps the name, loses the email in references. */
  is_removed: col.intDefault(0),
  /** Profile zone (IANA). */
  time_zone: col.textOrNull(),
  /** JSON array: Checklist.Creator, Template.Creator, Task.Creator, ... */
  rights: col.textDefault('[]'),
  created_at: col.int(),
});

export const groupsTable = table('groups', {
  id: col.id(),
  workspace_id: col.int(),
  name: col.text(),
  created_at: col.int(),
});

export const groupMembersTable = table(
  'group_members',
  {
    group_id: col.int(),
    member_id: col.int(),
  },
  ['group_id', 'member_id'],
);

export const apiKeysTable = table('api_keys', {
  id: col.id(),
  workspace_id: col.int(),
  name: col.text(),
  /** SHA-256 hex of the key; the key itself is never stored. */
  key_hash: col.text(),
  /** NULL: acts as the workspace. */
  member_id: col.intOrNull(),
  /** 'YYYY-MM-DD': the key works until the end of that day UTC. */
  expires_on: col.textOrNull(),
  revoked_at: col.intOrNull(),
  created_at: col.int(),
});
