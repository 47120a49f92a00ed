// What every Data Set operation shares (spec v3 4.7 paths; 5.4-5.6 permissions): one tag,
// one fidelity note, no MCP tool, the standard budget, and the inputs several routes take.
// Bodies and answers the spec does not show are designed in docs/data-sets.md.
import { z } from 'zod';
import type { Ctx } from '../../context';
import { READ, defineOperation, mixed, type Declared, type Operation } from '../define';
import { cursor, pageSizeStrict } from '../input-kinds';
import { pageOf } from '../shapes/data-sets';
import { cursorScope, paginate } from '../../domain/paging';
import { FIELD_TYPES } from '../../domain/datasets/field-types';
import { MAX_DESCRIPTION, MAX_NAME } from '../../domain/datasets/limits';
import { SLUG } from '../../domain/datasets/lookup';
import { lazy } from '../../lazy';

const NO_TOOL = 'The spec names no MCP tool for Data Sets (spec v3 4.6 lists the tools); Data Sets are REST only.';
const FIDELITY = mixed('4.7, 5.4-5.6', 'docs/data-sets.md', 'the v3 bodies of Data Sets, their fields, records and views (4.7: not shown; the legacy 4.8 routes are the model)');

/** A Data Set operation: the facts every one of them shares are filled in here. */
export const dataSetOperation = <S extends z.ZodRawShape>(op: Omit<Declared<S>, 'fidelity' | 'tag' | 'budget' | 'noTool'>): Operation =>
  defineOperation<S>({ ...op, fidelity: FIDELITY, tag: 'Data Sets', budget: 'standard', noTool: NO_TOOL });

export const NOT_FOUND = '404 DATA_SET_NOT_FOUND' as const;

// Keys typed as answers type them (format uuid); a built-in Data Set's key or slug is either (spec v3 2.1).
const KEY_OR_SLUG = "must be a Data Set key (GUID) or a system Data Set's slug";
export const dataSetKey = () =>
  z
    .union([z.guid({ error: KEY_OR_SLUG }), z.string({ error: KEY_OR_SLUG }).regex(SLUG, { error: KEY_OR_SLUG }).describe("A system Data Set's slug")], { error: KEY_OR_SLUG })
    .describe("The Data Set's key (GUID), or a system Data Set's slug such as countries.");
export const keyOf = (what: string) => z.guid({ error: `must be the GUID of a ${what} of this Data Set` }).describe(`The ${what}'s key (GUID).`);
export const name = (what: string) => z.string({ error: 'must be a string' }).max(MAX_NAME, { error: `must be at most ${MAX_NAME} characters` }).meta({ minLength: 1, pattern: '\\S' }).describe(`The ${what} name, up to ${MAX_NAME} characters.`);
export const description = () => z.string({ error: 'must be a string' }).max(MAX_DESCRIPTION, { error: 'must be at most 1,000 characters' });
export const fieldType = () => z.enum(FIELD_TYPES, { error: `must be one of ${FIELD_TYPES.join(', ')}` }).describe(`The field type: ${FIELD_TYPES.join(', ')} (boolean is True/False).`);
const cell = lazy(() => z.union([z.string(), z.number(), z.boolean(), z.null()]));
export const values = () => z.record(z.string(), cell(), { error: 'must be an object keyed by field key' }).meta({ propertyNames: { format: 'uuid' } }).describe('Values keyed by field key; each is validated against its field type; empty (null or "") clears.');

export const paging = lazy(() => ({ pageSize: pageSizeStrict().describe('1 to 100, default 50.'), after: cursor().describe('The nextCursor of the previous page.') }));

/** What a paged list under a Data Set reads: the set's key (the cursor is bound to it), every item, and how one is answered. */
interface Listed<T, R> {
  key: string;
  all: T[];
  map: (t: T) => R;
}

/** GET /v3/data-sets/:dataSetKey/<sub>: every item in one order, paged, the cursor bound to the key that asked, the list, the set and the page size. */
export const listUnder = <T, R>(spec: { id: string; sub: string; summary: string; description: string; item: () => z.ZodType; list: (ctx: Ctx, dataSetKey: string) => Listed<T, R> }) =>
  dataSetOperation({
    id: spec.id,
    method: 'GET',
    path: `/v3/data-sets/:dataSetKey/${spec.sub}`,
    summary: spec.summary,
    description: spec.description,
    input: () => ({ dataSetKey: dataSetKey(), ...paging() }),
    query: ['pageSize', 'after'],
    output: () => pageOf(spec.item()),
    refusals: ['403 FORBIDDEN', NOT_FOUND],
    annotations: READ,
    handler: (ctx, i) => {
      const { key, all, map } = spec.list(ctx, i.dataSetKey);
      return paginate(all, i.pageSize ?? 50, i.after, [cursorScope(ctx), `data-set-${spec.sub}`, key, i.pageSize ?? 50], map);
    },
  });
