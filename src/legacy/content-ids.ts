// The legacy integer ids of controls (legacy spec 4.2 update-task-content: taskContentID,
// contentID). Checklists and tasks use their row ids; controls live in template documents
// under GUID keys, so their integers are handed out here on first sight and kept
// (schema.sql version 2), stable across restarts.
import type { Db } from '../store/open';
import { contentIdOf, contentRow, taskContentFieldKey, taskContentIdOf } from '../rows/legacy-contents';

/** taskContentID: the control (template field key) within the workspace. */
export const taskContentId = (db: Db, workspaceId: number, fieldKey: string): number => taskContentIdOf(db, workspaceId, fieldKey);

/** contentID: the control on one task (checklist task or standalone). */
export const contentId = (db: Db, taskId: number, fieldKey: string): number => contentIdOf(db, taskId, fieldKey);

/** The task and field a contentID names, within the workspace. */
export const contentById = (db: Db, workspaceId: number, id: number): { task_id: number; field_key: string } | undefined => contentRow(db, workspaceId, id);

/** The field key a taskContentID names, within the workspace. */
export const fieldKeyOfTaskContent = (db: Db, workspaceId: number, id: number): string | undefined => taskContentFieldKey(db, workspaceId, id);
