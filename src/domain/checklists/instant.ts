// Moved: the ISO instant input schema is one of the named input schemas of
// src/operations/schemas.ts (`instant`). Kept so importers of the old path keep working.
export { instantInput } from '../../operations/schemas';
