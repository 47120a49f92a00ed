// What checklist access rests on (spec v3 5.4, 5.9), read across `template_permissions`,
// `group_members`, `task_assignees` and `tasks`. The rules themselves are
// src/domain/access/checklists.ts; these are its reads.
import type { Db } from '../store/open';

/** A member named directly or through one of their groups (`a` is the aliased assignee table; two `?`: the member, twice). */
const MINE = `((a.assignee_type = 'TeamMember' AND a.assignee_id = ?) OR (a.assignee_type = 'Group' AND a.assignee_id IN (SELECT group_id FROM group_members WHERE member_id = ?)))`;

export function groupIdsOfMember(db: Db, memberId: number): number[] {
  return db
    .prepare<[number], { group_id: number }>('SELECT group_id FROM group_members WHERE member_id = ?')
    .all(memberId)
    .map((r) => r.group_id);
}

/** Permission levels of the template's rules naming AllUsers, the member, or a group of theirs. */
export function templateRulesNaming<P extends string>(db: Db, templateId: number, memberId: number): P[] {
  return db
    .prepare<[number, number, number], { permission: P }>(
      `SELECT permission FROM template_permissions a
        WHERE template_id = ? AND (a.assignee_type = 'AllUsers' OR ${MINE})`,
    )
    .all(templateId, memberId, memberId)
    .map((r) => r.permission);
}

/** Whether any task of the checklist (its own and attached standalone tasks) is assigned to the member, directly or through a group. */
export function assignedOnChecklist(db: Db, checklistId: number, memberId: number): boolean {
  // Two indexed lookups joined by UNION ALL: an OR of checklist_id and attached_checklist_id
  // cannot use either index and scanned every task (quadratic over a 100,000-checklist list).
  const row = db
    .prepare<[number, number, number, number], { one: number }>(
      `SELECT 1 AS one FROM task_assignees a
        WHERE a.task_id IN (SELECT id FROM tasks WHERE checklist_id = ? UNION ALL SELECT id FROM tasks WHERE attached_checklist_id = ?)
          AND ${MINE}
        LIMIT 1`,
    )
    .get(checklistId, checklistId, memberId, memberId);
  return row !== undefined;
}

/** Templates of the workspace whose rules open every checklist to the member (RunAndView, ViewOnly). */
export function templatesOpenTo(db: Db, workspaceId: number, memberId: number): number[] {
  return db
    .prepare<[number, number, number], { template_id: number }>(
      `SELECT DISTINCT template_id FROM template_permissions a
        WHERE permission IN ('RunAndView', 'ViewOnly')
          AND (a.assignee_type = 'AllUsers' OR ${MINE})
          AND template_id IN (SELECT id FROM templates WHERE workspace_id = ?)`,
    )
    .all(memberId, memberId, workspaceId)
    .map((r) => r.template_id);
}

/** Checklists where something (own or attached task) is assigned to the member. */
export function checklistsAssignedTo(db: Db, memberId: number): number[] {
  return db
    .prepare<[number, number], { cid: number }>(
      `SELECT DISTINCT coalesce(t.checklist_id, t.attached_checklist_id) AS cid
         FROM task_assignees a JOIN tasks t ON t.id = a.task_id
        WHERE ${MINE}
          AND coalesce(t.checklist_id, t.attached_checklist_id) IS NOT NULL`,
    )
    .all(memberId, memberId)
    .map((r) => r.cid);
}

/** The same read rule as an SQL condition on `checklists` (lists paged in SQL), with its arguments. */
export function readableChecklistsCondition(memberId: number): { sql: string; args: number[] } {
  return {
    sql: `(template_id IN (SELECT template_id FROM template_permissions a WHERE permission IN ('RunAndView', 'ViewOnly') AND (a.assignee_type = 'AllUsers' OR ${MINE}))
           OR id IN (SELECT coalesce(t.checklist_id, t.attached_checklist_id) FROM task_assignees a JOIN tasks t ON t.id = a.task_id WHERE ${MINE}))`,
    args: [memberId, memberId, memberId, memberId],
  };
}

/** Groups of the workspace the member belongs to. */
export function groupIdsOfMemberIn(db: Db, workspaceId: number, memberId: number): number[] {
  return db
    .prepare<[number, number], { group_id: number }>('SELECT gm.group_id FROM group_members gm JOIN groups g ON g.id = gm.group_id WHERE gm.member_id = ? AND g.workspace_id = ?')
    .all(memberId, workspaceId)
    .map((r) => r.group_id);
}
