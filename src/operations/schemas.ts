// Small named input schemas. Query strings are coerced by the REST transport
// according to the schema's type (transports/http/coerce.ts); MCP arguments
// arrive typed. Messages here are the messages integrators see.
import { z } from 'zod';
import { isGuid } from '../ids';

export const guid = (what = 'a GUID') =>
  z.string({ error: `must be ${what}` }).refine(isGuid, { error: `must be ${what}` });

export const positiveInt = (what: string) =>
  z.number({ error: `must be an integer (${what})` }).int({ error: `must be an integer (${what})` }).min(1, { error: `must be 1 or more (${what})` });

export const memberIdParam = () => z.number({ error: 'must be an integer' }).int({ error: 'must be an integer' }).min(1, { error: 'must be 1 or more' }).max(2147483647, { error: 'is too large' });

/** Only `true`, in any letter case, switches a boolean query option on (spec v3 4.4). */
export const queryBool = () => z.boolean({ error: 'must be true or false' }).optional();

/** pageSize 1..100, refused outside (4.1 rule 11). */
export const pageSizeStrict = () =>
  z.number({ error: 'must be an integer from 1 to 100' }).int({ error: 'must be an integer from 1 to 100' }).min(1, { error: 'must be an integer from 1 to 100' }).max(100, { error: 'must be an integer from 1 to 100' }).optional();

/** pageSize where out of range or non-numeric reads as 50 (list_tags, upgrades). */
export const pageSizeLenient = () => z.unknown().optional().describe('1 to 100, default 50; a value outside the range is not refused, 50 is used');

export const cursor = () => z.string({ error: 'must be a cursor from nextCursor' }).optional();
export const sortArg = (fields: string[]) =>
  z.string({ error: 'must be a sort expression' }).optional().describe(`one of ${fields.join(', ')}, optionally with :asc or :desc`);
export const search = () => z.string({ error: 'must be a string' }).max(1000, { error: 'must be at most 1,000 characters' }).optional();
