// Data Sets: sets, fields, records, views and the names of views removed (schema.sql versions 1,
// 5 and 12, docs/data-sets.md): declarations (store/columns.ts).
import { col, table } from '../columns';

/** A set; workspace_id NULL: a system set shared by every workspace. */
export const dataSetsTable = table('data_sets', {
  id: col.id(),
  key: col.text(),
  workspace_id: col.intOrNull(),
  slug: col.textOrNull(),
  name: col.text(),
  description: col.textOrNull(),
  source: col.oneOf<'organisation' | 'system'>(),
  folder_id: col.intOrNull(),
  created_at: col.intOrNull(),
  updated_at: col.intOrNull(),
});

export const dataSetFieldsTable = table('data_set_fields', {
  id: col.id(),
  key: col.text(),
  data_set_id: col.int(),
  name: col.text(),
  type: col.oneOf<'text' | 'number' | 'date' | 'email' | 'url' | 'boolean'>(),
  description: col.textOrNull(),
  position: col.int(),
});

export const dataSetRecordsTable = table('data_set_records', {
  id: col.id(),
  key: col.text(),
  data_set_id: col.int(),
  position: col.int(),
  /** JSON object keyed by field key. */
  vals: col.textDefault('{}'),
  created_at: col.int(),
});

export const dataSetViewsTable = table('data_set_views', {
  id: col.id(),
  key: col.text(),
  data_set_id: col.int(),
  name: col.text(),
  is_default: col.intDefault(0),
  /** JSON arrays as stored. */
  filters: col.textDefault('[]'),
  sorts: col.textDefault('[]'),
  hidden_fields: col.textDefault('[]'),
});

/** Names of views deleted or renamed, so templates showing them get a link warning. */
export const dataSetRemovedViewsTable = table('data_set_removed_views', {
  data_set_id: col.int(),
  name: col.text(),
  removed_at: col.int(),
});
