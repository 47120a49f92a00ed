// Limits of legacy spec 8, shared by both APIs over the one store.
export const MAX_NAME = 200; // Data Set, field and view names
export const MAX_DESCRIPTION = 1000; // Data Set and field descriptions
export const MAX_FIELDS = 50;
export const MAX_VIEWS = 20; // All Records included
export const MAX_RECORDS = 10_000;
export const MAX_RECORD_BYTES = 5 * 1024; // total cell text of a record, UTF-8
export const MAX_CSV_BYTES = 5 * 1024 * 1024;
export const DEFAULT_PAGE_SIZE = 50;
export const MAX_LEGACY_PAGE_SIZE = 200;
export const DEFAULT_VIEW_NAME = 'All Records';
