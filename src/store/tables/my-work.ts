// The Tasks grid's own tables: saved views, each member's default view, and the assignments of
// open tasks (schema.sql versions 1 and 6, docs/tasks-grid.md): declarations (store/columns.ts).
import { col, table } from '../columns';

export const savedViewsTable = table('saved_views', {
  id: col.id(),
  key: col.text(),
  workspace_id: col.int(),
  created_by: col.intOrNull(),
  /** No CHECK in the schema: the types the code writes. */
  type: col.oneOf<'Private' | 'Team' | 'UsersGroups'>(),
  /** The view's definition as JSON. */
  data: col.text(),
  created_at: col.int(),
});

export const myWorkDefaultsTable = table(
  'my_work_defaults',
  {
    member_id: col.int(),
    view_key: col.text(),
  },
  ['member_id'],
);

/** Kept by schema triggers from task_assignees and tasks: the assignments of open tasks only. */
export const gridOpenAssignmentsTable = table(
  'grid_open_assignments',
  {
    assignee_type: col.text(),
    assignee_id: col.int(),
    task_id: col.int(),
  },
  ['assignee_type', 'assignee_id', 'task_id'],
);
