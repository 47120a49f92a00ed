// Checklists, their custom notifications and their queued upgrades (schema.sql versions 1 and 4):
// declarations (store/columns.ts).
import { col, table } from '../columns';

export const checklistsTable = table('checklists', {
  id: col.id(),
  key: col.text(),
  workspace_id: col.int(),
  template_id: col.int(),
  template_version: col.int(),
  name: col.text(),
  status: col.oneOf<'Scheduled' | 'InProgress' | 'Complete'>(),
  created_by: col.intOrNull(),
  created_at: col.int(),
  scheduled_at: col.intOrNull(),
  started_at: col.intOrNull(),
  completed_at: col.intOrNull(),
  due_at: col.intOrNull(),
  is_archived: col.intDefault(0),
  /** Non-NULL while shared. */
  share_token: col.textOrNull(),
  schedule_id: col.intOrNull(),
  rebuilding: col.intDefault(0),
  /** JSON of the parameters sent at start (schema version 4; docs/upgrades.md). */
  parameters: col.textOrNull(),
});

/** Custom notifications added to one checklist (not to its template). */
export const checklistNotificationsTable = table('checklist_notifications', {
  id: col.id(),
  checklist_id: col.int(),
  trigger: col.oneOf<'taskCompleted' | 'taskDue' | 'checklistCompleted'>(),
  task_key: col.textOrNull(),
  /** JSON array of {type, id}. */
  recipients: col.textDefault('[]'),
  subject: col.text(),
  message: col.textOrNull(),
  created_by: col.intOrNull(),
  created_at: col.int(),
});

/** The durable queue of checklist rebuilds (docs/upgrades.md). */
export const upgradeJobsTable = table('upgrade_jobs', {
  id: col.id(),
  workspace_id: col.int(),
  template_id: col.int(),
  checklist_id: col.int(),
  target_version: col.int(),
  requested_by: col.intOrNull(),
  /** The X-Request-Id of the request that queued it. */
  request_id: col.textOrNull(),
  state: col.oneOfDefault<'queued' | 'done' | 'failed'>('queued'),
  /** Emulator clock: not rebuilt before this. */
  run_at: col.int(),
  error: col.textOrNull(),
  created_at: col.int(),
  finished_at: col.intOrNull(),
});
