// The legacy API's integer ids of controls (schema.sql version 3, docs/legacy.md):
// declarations (store/columns.ts).
import { col, table } from '../columns';

/** taskContentID: a control (a template field key) within a workspace. */
export const legacyTaskContentsTable = table('legacy_task_contents', {
  id: col.id(),
  workspace_id: col.int(),
  field_key: col.text(),
});

/** contentID: a control on one task. */
export const legacyContentsTable = table('legacy_contents', {
  id: col.id(),
  task_id: col.int(),
  field_key: col.text(),
});
