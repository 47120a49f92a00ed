import type { Db } from '../store/open';
import { memberById, displayName, type MemberRow } from '../rows/people';

/** User reference (spec v3 2.4): name and email; a member who left keeps the name and loses the email. */
export function userRef(db: Db, memberId: number | null | undefined): { name: string; email?: string } | undefined {
  if (memberId === null || memberId === undefined) return undefined;
  const m = memberById(db, memberId);
  return m ? userRefOf(m) : undefined;
}

/** The user reference of a member row already read. */
export function userRefOf(m: MemberRow): { name: string; email?: string } {
  return { name: displayName(m), email: m.is_removed ? undefined : (m.email ?? undefined) };
}
