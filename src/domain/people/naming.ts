// Resolving named people in template documents (spec v3 4.4 rule 2: named, not numbered).
// The full v3 naming rules for requests (ambiguity refusals) live in the task area.
import type { Db } from '../../store/open';
import type { DocNaming } from '../templates/document';

export interface AssigneeRef {
  type: 'TeamMember' | 'Group';
  id: number;
}

/** Names that match exactly one active member or group; others are skipped (the validator reports them). */
export function resolveDocNaming(db: Db, workspaceId: number, entries: DocNaming[]): AssigneeRef[] {
  const out: AssigneeRef[] = [];
  for (const e of entries) {
    if (e.id !== undefined && e.type) {
      out.push({ type: /^group$/i.test(e.type) ? 'Group' : 'TeamMember', id: e.id });
      continue;
    }
    if (!e.name) continue;
    const found = findByName(db, workspaceId, e.name);
    if (found.length === 1) out.push(found[0]);
  }
  return out;
}

export function findByName(db: Db, workspaceId: number, name: string): AssigneeRef[] {
  const members = db
    .prepare<[number, string, string], { id: number }>(
      `SELECT id FROM members WHERE workspace_id = ? AND is_active = 1 AND is_removed = 0 AND is_anonymous = 0
         AND (lower(trim(coalesce(first_name,'') || ' ' || coalesce(last_name,''))) = lower(?) OR lower(email) = lower(?))`,
    )
    .all(workspaceId, name.trim(), name.trim());
  const groups = db.prepare<[number, string], { id: number }>('SELECT id FROM groups WHERE workspace_id = ? AND lower(name) = lower(?)').all(workspaceId, name.trim());
  return [...groups.map((g) => ({ type: 'Group' as const, id: g.id })), ...members.map((m) => ({ type: 'TeamMember' as const, id: m.id }))];
}
