import type { Db } from '../store/open';
import { memberById, displayName } from '../rows/people';

/** User reference (spec v3 2.4): name and email; a member who left keeps the name and loses the email. */
export function userRef(db: Db, memberId: number | null | undefined): { name: string; email?: string } | undefined {
  if (memberId === null || memberId === undefined) return undefined;
  const m = memberById(db, memberId);
  if (!m) return undefined;
  return { name: displayName(m), email: m.is_removed ? undefined : (m.email ?? undefined) };
}
