// Tasks and what hangs off one: assignees, field answers, files, comments, snoozes, the activity
// feed (schema.sql versions 1, 6 and 7): declarations (store/columns.ts).
import { col, columnNames, table } from '../columns';

/** Checklist tasks (checklist_id set) and standalone tasks (checklist_id NULL). */
export const tasksTable = table('tasks', {
  id: col.id(),
  key: col.text(),
  workspace_id: col.int(),
  checklist_id: col.intOrNull(),
  attached_checklist_id: col.intOrNull(),
  position: col.intDefault(0),
  name: col.text(),
  description: col.textOrNull(),
  is_heading: col.intDefault(0),
  is_stop: col.intDefault(0),
  status: col.oneOfOrNull<'Incomplete' | 'Complete' | 'NotApplicable'>(),
  completed_at: col.intOrNull(),
  completed_by: col.intOrNull(),
  not_applicable_at: col.intOrNull(),
  not_applicable_by: col.intOrNull(),
  due_at: col.intOrNull(),
  due_is_manual: col.intDefault(0),
  is_assigned_exclusively: col.intDefault(0),
  raised_by: col.intOrNull(),
  created_at: col.int(),
  // The Tasks grid's own flags (schema.sql versions 6 and 7), written by schema triggers and
  // stop visibility: not part of a task row as rows/tasks.ts reads it (TASK_ROW_COLUMNS).
  grid_halted: col.intDefault(0),
  stop_hidden: col.intDefault(0),
});

/** The grid's own columns of `tasks`, which a task row leaves out. */
const GRID_OWN = ['grid_halted', 'stop_hidden'] as const;

/**
 * The columns of a task row as rows/tasks.ts reads and remembers it: every column but the grid's
 * own (store/watched-tables.ts says why its update trigger watches these only).
 */
export const TASK_ROW_COLUMNS = columnNames(tasksTable).filter((c): c is Exclude<typeof c, (typeof GRID_OWN)[number]> => !(GRID_OWN as readonly string[]).includes(c));

export const taskAssigneesTable = table(
  'task_assignees',
  {
    task_id: col.int(),
    assignee_type: col.oneOf<'TeamMember' | 'Group'>(),
    assignee_id: col.int(),
  },
  ['task_id', 'assignee_type', 'assignee_id'],
);

/** Field answers; the field's definition lives in the template version document. */
export const fieldValuesTable = table(
  'field_values',
  {
    task_id: col.int(),
    field_key: col.text(),
    /** JSON. */
    value: col.textOrNull(),
    updated_at: col.int(),
    updated_by: col.intOrNull(),
  },
  ['task_id', 'field_key'],
);

export const filesTable = table('files', {
  id: col.id(),
  workspace_id: col.int(),
  task_id: col.intOrNull(),
  /** NULL for a comment attachment. */
  field_key: col.textOrNull(),
  name: col.text(),
  content_type: col.text(),
  data: col.blob(),
  /** The download URL's secret (not protected by the key). */
  token: col.text(),
  created_at: col.int(),
  created_by: col.intOrNull(),
});

export const commentsTable = table('comments', {
  id: col.id(),
  task_id: col.int(),
  author_id: col.intOrNull(),
  html: col.textOrNull(),
  text: col.textDefault(''),
  /** JSON array of {type, id, name}. */
  mentions: col.textDefault('[]'),
  file_id: col.intOrNull(),
  created_at: col.int(),
});

export const snoozesTable = table(
  'snoozes',
  {
    member_id: col.int(),
    task_id: col.int(),
    until_at: col.int(),
  },
  ['member_id', 'task_id'],
);

export const activityTable = table('activity', {
  id: col.id(),
  workspace_id: col.int(),
  checklist_id: col.intOrNull(),
  task_id: col.intOrNull(),
  member_id: col.intOrNull(),
  action: col.text(),
  text: col.text(),
  /** JSON details, or null. */
  data: col.textOrNull(),
  created_at: col.int(),
});
