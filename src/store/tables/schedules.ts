// Schedules and their runs (schema.sql version 2, docs/schedules.md): declarations (store/columns.ts).
import { col, table } from '../columns';

export const schedulesTable = table('schedules', {
  id: col.id(),
  workspace_id: col.int(),
  template_id: col.int(),
  name: col.text(),
  /** JSON of the Recurrence, or '{}' for a single run. */
  data: col.textDefault('{}'),
  created_at: col.int(),
  created_by: col.intOrNull(),
  time_zone: col.textDefault('UTC'),
  /** Wall clock in time_zone, YYYY-MM-DDTHH:mm:ss. */
  start_local: col.textDefault(''),
  updated_at: col.intOrNull(),
  plan: col.intDefault(0),
  /** The first occurrence not yet materialized. */
  next_seq: col.intDefault(0),
  /** The series has no occurrence left to materialize. */
  is_ended: col.intDefault(0),
});

export const scheduleRunsTable = table('schedule_runs', {
  id: col.id(),
  schedule_id: col.int(),
  plan: col.int(),
  /** Occurrence number in the series, from 0. */
  seq: col.int(),
  /** The UTC instant. */
  scheduled_at: col.int(),
  /** The same instant as wall clock in the schedule's zone. */
  local: col.text(),
  status: col.oneOf<'Upcoming' | 'Started' | 'Skipped' | 'Failed'>(),
  /** No foreign key: a deleted checklist leaves the run's history. */
  checklist_id: col.intOrNull(),
  started_at: col.intOrNull(),
  skipped_at: col.intOrNull(),
  skipped_by: col.intOrNull(),
  reason: col.textOrNull(),
});
