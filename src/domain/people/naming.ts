// Resolving named people in template documents (spec v3 4.4 rule 2: named, not numbered).
// The full v3 naming rules for requests (ambiguity refusals) live in the task area.
import type { Db } from '../../store/open';
import type { DocNaming } from '../../rows/template-document';
import { findByName, type AssigneeRef } from '../../rows/people';


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
