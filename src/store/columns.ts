// A table's columns, declared once (docs/architecture.md "Adding a column"): its row type, its
// SELECT list and its INSERT come from the declaration, and test/columns.test.ts compares every
// declaration with the migrated schema (PRAGMA table_info), so a column added to schema.sql and
// not declared (or declared and not there) fails a test instead of going silently missing from a
// finder. These are the primitives; the declarations, one file per area, are in store/tables/.
// Plain data beside schema.sql's migrations: imports nothing; the row layer and the store's
// trigger set-up both read it.

type SqlType = 'INTEGER' | 'TEXT' | 'REAL' | 'BLOB';

/**
 * One column: its SQL type, whether it may hold NULL, its schema DEFAULT. `T` is the value's
 * type in a row; `Optional` says an INSERT may leave it out (nullable or defaulted); `RowId`
 * marks the INTEGER PRIMARY KEY that SQLite numbers, which an INSERT leaves out.
 */
export interface Column<T, Optional extends boolean = boolean, RowId extends boolean = boolean> {
  readonly type: SqlType;
  readonly nullable: boolean;
  /** The row id (`INTEGER PRIMARY KEY`, numbered by SQLite when an INSERT leaves it out). */
  readonly rowId: boolean;
  readonly default: string | number | undefined;
  /** Only for the compiler. */
  readonly _row?: T;
  readonly _optional?: Optional;
  readonly _rowId?: RowId;
}

const column = <T, O extends boolean, R extends boolean = false>(type: SqlType, nullable: boolean, dflt?: string | number, rowId = false): Column<T, O, R> => ({
  type,
  nullable,
  rowId,
  default: dflt,
});

/** The column constructors a declaration is written in. */
export const col = {
  /** INTEGER PRIMARY KEY: the row id, numbered by SQLite. */
  id: () => column<number, true, true>('INTEGER', false, undefined, true),
  int: () => column<number, false>('INTEGER', false),
  intDefault: (dflt: number) => column<number, true>('INTEGER', false, dflt),
  intOrNull: () => column<number | null, true>('INTEGER', true),
  text: () => column<string, false>('TEXT', false),
  textDefault: (dflt: string) => column<string, true>('TEXT', false, dflt),
  textOrNull: () => column<string | null, true>('TEXT', true),
  /** BLOB NOT NULL: bytes. */
  blob: () => column<Buffer, false>('BLOB', false),
  /**
   * A TEXT NOT NULL column holding one of these values: those its CHECK allows, or (where the
   * schema has no CHECK) those the code writes.
   */
  oneOf: <V extends string>() => column<V, false>('TEXT', false),
  /** As `oneOf`, with a schema DEFAULT. */
  oneOfDefault: <V extends string>(dflt: V) => column<V, true>('TEXT', false, dflt),
  /** As `oneOf`, or NULL. */
  oneOfOrNull: <V extends string>() => column<V | null, true>('TEXT', true),
};

export type Columns = Record<string, Column<unknown>>;

/** A row as SELECTed. */
export type RowOf<D extends Columns> = { -readonly [K in keyof D]: D[K] extends Column<infer V> ? V : never };

type OptionalKeys<D extends Columns> = { [K in keyof D]: D[K] extends Column<unknown, true> ? K : never }[keyof D];

type RowIdKeys<D extends Columns> = { [K in keyof D]: D[K] extends Column<unknown, boolean, true> ? K : never }[keyof D];

/** What an INSERT takes: every column but the row id, those with a default or NULL optional. */
export type InsertOf<D extends Columns> = Omit<{ [K in Exclude<keyof D, OptionalKeys<D>>]: RowOf<D>[K] } & { [K in OptionalKeys<D>]?: RowOf<D>[K] }, RowIdKeys<D>>;

export interface Table<D extends Columns> {
  readonly name: string;
  readonly columns: D;
  /** The PRIMARY KEY's columns in key order (none: the table has only SQLite's rowid). Plain
   * strings, so that every declaration is a Table<Columns>; table() checks them. */
  readonly primaryKey: readonly string[];
}

/**
 * A table's declaration. Its primary key is its row id column (`col.id()`), or `primaryKey`:
 * a composite key, or a key the writer gives (`name TEXT PRIMARY KEY`).
 */
export const table = <D extends Columns>(name: string, columns: D, primaryKey?: readonly (keyof D & string)[]): Table<D> => ({
  name,
  columns,
  primaryKey: primaryKey ?? Object.keys(columns).filter((n) => columns[n].rowId),
});

/** The column names of a declaration, in declaration order. */
export const columnNames = <D extends Columns>(t: Table<D>): (keyof D & string)[] => Object.keys(t.columns);

/** The SELECT list of `columns` (all when absent), each prefixed with `alias.` when given. */
export const selectList = <D extends Columns>(t: Table<D>, columns: readonly (keyof D & string)[] = columnNames(t), alias?: string): string =>
  columns.map((c) => (alias ? `${alias}.${c}` : c)).join(', ');

/**
 * The one INSERT of a table: every column but the row id (or the `only` ones), by name
 * (`@column`), and the values for it: what `row` gives, else (absent or undefined) the schema's
 * default, else NULL.
 */
export function insertOf<D extends Columns, R = InsertOf<D>>(t: Table<D>, only?: readonly (keyof D & string)[]): { sql: string; values: (row: R) => Record<string, unknown> } {
  const names = (only ?? columnNames(t)).filter((n) => !t.columns[n].rowId);
  const sql = `INSERT INTO ${t.name} (${names.join(', ')}) VALUES (${names.map((n) => `@${n}`).join(', ')})`;
  const defaults: Record<string, unknown> = {};
  for (const n of names) defaults[n] = t.columns[n].default ?? null;
  // A property given as undefined takes the default too (an optional field passed along), not NULL.
  return {
    sql,
    values: (row) => {
      const out = { ...defaults };
      for (const [k, v] of Object.entries(row as Record<string, unknown>)) if (v !== undefined) out[k] = v;
      return out;
    },
  };
}
