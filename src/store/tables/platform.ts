// The platform's own tables: idempotency keys, settings, checkpoints and the change log behind
// them (schema.sql versions 1 and 11; docs/platform.md, docs/checkpoints.md): declarations
// (store/columns.ts).
import { col, table } from '../columns';

export const idempotencyTable = table(
  'idempotency',
  {
    workspace_id: col.int(),
    key: col.text(),
    /** A hash of the request it first answered. */
    fingerprint: col.text(),
    /** No CHECK in the schema: the states the code writes. */
    state: col.oneOf<'running' | 'done'>(),
    status: col.intOrNull(),
    /** JSON of the first answer's body; NULL for 204. */
    body: col.textOrNull(),
    /** JSON of the first answer's extra headers. */
    headers: col.textOrNull(),
    created_at: col.int(),
  },
  ['workspace_id', 'key'],
);

export const settingsTable = table(
  'settings',
  {
    name: col.text(),
    value: col.text(),
  },
  ['name'],
);

export const checkpointsTable = table(
  'checkpoints',
  {
    id: col.text(),
    /** The change log's last id when it was made: the diff reads the log after it. */
    change_seq: col.int(),
    /** The activity feed's last id then: who did what since is read after it. */
    activity_seq: col.int(),
    created_at: col.int(),
    /** 'reset' or 'import' once the data was replaced after it: its diff is refused. */
    replaced_by: col.textOrNull(),
  },
  ['id'],
);

/** Written by the triggers src/rows/change-log.ts makes at the first checkpoint. */
export const changeLogTable = table('change_log', {
  id: col.id(),
  /** The watched table. */
  tbl: col.text(),
  op: col.oneOf<'I' | 'U' | 'D'>(),
  /** The row's primary key as text. */
  row: col.text(),
  /** JSON of its watched columns before (U, D) and after (I, U). */
  old: col.textOrNull(),
  new: col.textOrNull(),
});

/** One row while the log runs: a name for this run of it. */
export const changeLogStateTable = table('change_log_state', {
  lineage: col.text(),
});
