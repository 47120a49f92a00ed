// Tags and their carriers (schema.sql version 1): declarations (store/columns.ts).
import { col, table } from '../columns';

export const tagsTable = table('tags', {
  id: col.id(),
  key: col.text(),
  workspace_id: col.int(),
  name: col.text(),
  /** Carriers the API does not reach (articles, files). */
  other_count: col.intDefault(0),
  created_at: col.int(),
});

export const tagAssignmentsTable = table('tag_assignments', {
  id: col.id(),
  /** assignmentKey in payloads. */
  key: col.text(),
  tag_id: col.int(),
  target_type: col.oneOf<'checklist' | 'task' | 'template'>(),
  target_id: col.int(),
});
