// Row shapes as stored (schema.sql). Only the store and the domain see these.
export interface WorkspaceRow {
  id: number;
  key: string;
  name: string;
  region: 'US' | 'EU';
  is_enterprise: number;
  anonymous_member_id: number | null;
  created_at: number;
}

export interface MemberRow {
  id: number;
  workspace_id: number;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  role: 'Administrator' | 'Member' | 'Guest';
  is_active: number;
  is_anonymous: number;
  is_removed: number;
  time_zone: string | null;
  rights: string;
  created_at: number;
}

export interface GroupRow {
  id: number;
  workspace_id: number;
  name: string;
  created_at: number;
}

export interface KeyRow {
  id: number;
  workspace_id: number;
  name: string;
  key_hash: string;
  member_id: number | null;
  expires_on: string | null;
  revoked_at: number | null;
  created_at: number;
}

/** "First Last"; absent when there is no first name (spec v3 2.4 assignee). */
export function fullName(m: Pick<MemberRow, 'first_name' | 'last_name'>): string | undefined {
  if (!m.first_name) return undefined;
  return m.last_name ? `${m.first_name} ${m.last_name}` : m.first_name;
}

/** A name to show in text and user references, falling back to the surname. */
export function displayName(m: Pick<MemberRow, 'first_name' | 'last_name' | 'email'>): string {
  return [m.first_name, m.last_name].filter(Boolean).join(' ') || m.email || 'Unknown';
}
