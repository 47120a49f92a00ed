// Small named input schemas: one per kind of value, each refusing with one message
// whatever is wrong (wrong type, out of range, bad format), so an integrator sees the
// same words for the same kind of value on every route. Query strings are coerced by
// the REST transport according to the schema's type (transports/web/coerce.ts); MCP
// arguments arrive typed.
import { z } from 'zod';
import { parseInstant } from '../domain/tasks/field-values';

/** GUID key (spec v3 2.1): `what` names the kind of key, e.g. 'a template key (GUID)'. Declared `format: uuid`, as keys are in answers. */
export const guid = (what = 'a GUID') => z.guid({ error: `must be ${what}` });
/** The same, under the name of its kind. */
export const guidKey = guid;

/** A whole number from `min` to `max`, refused with one message whatever is wrong (`tooLarge` above `max`, where that says more). */
export const intBetween = (min: number, max: number, error: string, tooLarge = error) => z.number({ error }).int({ error }).min(min, { error }).max(max, { error: tooLarge });

const atMost = (max: number) => ({ error: `must be at most ${max.toLocaleString('en')} characters` });
/** A string of at most `max` characters; `typeError` refuses anything else. */
export const text = (max: number, typeError = 'must be a string') => z.string({ error: typeError }).max(max, atMost(max));
/** The same, and not empty. */
export const nonEmptyText = (max: number, typeError = 'must be a string') => z.string({ error: typeError }).min(1, { error: 'must not be empty' }).max(max, atMost(max));

/** Integer id of a member, group, schedule or run (spec v3 2.1). */
export const intId = () => intBetween(1, 2147483647, 'must be an integer from 1 to 2147483647');
/** Member or group id (path and query); kept under its old name. */
export const memberIdParam = intId;

const INSTANT = 'must be an ISO 8601 date and time such as 2026-03-02T09:00:00Z or 2026-03-02T10:00:00+01:00 (no offset means UTC)';
/** ISO 8601 instant (spec v3 4.1 rule 6: `Z` = UTC, an offset is honoured, no offset = UTC), turned into milliseconds. */
export const instant = () =>
  z
    .string({ error: INSTANT })
    .refine((v) => parseInstant(v) !== null, { error: INSTANT })
    .transform((v) => parseInstant(v)!)
    // Declared as RFC 3339 date-time, what a client should send; the parser also takes an instant without offset (UTC).
    .meta({ format: 'date-time' });
export const instantInput = instant;

const TAG_NAME = 'must be a tag name of 1 to 100 characters';
/** A tag, by name (spec v3 2.6: tags are identified by name); surrounding spaces do not count. */
export const tagName = () =>
  z
    .string({ error: TAG_NAME })
    .refine((s) => s.trim().length > 0 && s.trim().length <= 100, { error: TAG_NAME })
    // Declared as what always passes: 1 to 100 characters, not only spaces (surrounding spaces are trimmed and not counted).
    .meta({ minLength: 1, maxLength: 100, pattern: '\\S' })
    .describe('a tag name (case-insensitive), 1 to 100 characters');

/** The canonical spelling of a comma-separated list of `names`, as a JSON Schema pattern (parsers may accept more: case, spaces). */
export const commaListPattern = (names: readonly string[]) => `^(${names.join('|')})(,(${names.join('|')}))*$`;

/** Base64 text (spec v3 4.1 rule 1: a file's bytes in the JSON body), as the decoders accept it. */
export const BASE64_PATTERN = '^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$';

/**
 * A JSON Schema that holds when every one of `names` is given: for `not` in a declared rule
 * (the properties named, so linters see them defined where they are required).
 */
export const given = (...names: string[]) => ({ required: names, properties: Object.fromEntries(names.map((n) => [n, {}])) });

/**
 * A PATCH property that cannot be cleared: null reaches the domain, which refuses it with its own
 * words ("cannot be cleared"); the document says null is not accepted.
 */
export const notClearable = <T extends z.ZodType>(s: T) => s.nullable().meta({ not: { type: 'null' } });

export const positiveInt = (what: string) =>
  z.number({ error: `must be an integer (${what})` }).int({ error: `must be an integer (${what})` }).min(1, { error: `must be 1 or more (${what})` });

/** Only `true`, in any letter case, switches a boolean query option on (spec v3 4.4). */
export const queryBool = () => z.boolean({ error: 'must be true or false' }).optional();

/** pageSize 1..100, refused outside (4.1 rule 11). */
export const pageSizeStrict = () => intBetween(1, 100, 'must be an integer from 1 to 100').optional().describe('items per page, 1 to 100, default 50');

/** pageSize where out of range or non-numeric reads as 50 (list_tags, upgrades). */
export const pageSizeLenient = () => z.unknown().optional().describe('1 to 100, default 50; a value outside the range is not refused, 50 is used');

export const cursor = () =>
  z.string({ error: 'must be a cursor from nextCursor' }).optional().describe('the previous page\'s nextCursor; valid only with the same filters, sort and pageSize');
/**
 * `field`, `field:asc` or `field:desc` of the named fields (spec v3 4.1 rule 11), refused with the
 * domain's message (src/domain/paging.ts parseSort). Letter case and spaces are ignored; the
 * document's pattern (the regex without its `i` flag) shows the fields as they are spelled.
 */
export const sortArg = (fields: string[]) => {
  const error = `must be one of ${fields.join(', ')}, optionally followed by :asc or :desc.`;
  return z
    .string({ error })
    .regex(new RegExp(`^\\s*(${fields.join('|')})\\s*(:\\s*(asc|desc)\\s*)?$`, 'i'), { error })
    .optional()
    .describe(`one of ${fields.join(', ')}, optionally with :asc or :desc`);
};
export const search = () => text(1000).optional().describe('case-insensitive substring');

/** Tags to apply (EMULATOR.md: `{"tags": ["name", ...]}` on a checklist, task or standalone task): 1 to 50 names. */
export const tagList = () =>
  z.array(tagName(), { error: 'must be an array of tag names' }).min(1, { error: 'must name at least one tag' }).max(50, { error: 'must name at most 50 tags' });

/** The name of a checklist or a standalone task: 1 to 255 characters once trimmed (it is stored trimmed). */
export const trimmedName = () =>
  z
    .string({ error: 'must be a string' })
    .refine((s) => s.trim().length > 0, { error: 'must not be empty' })
    .refine((s) => s.trim().length <= 255, { error: 'must be at most 255 characters' })
    // Declared as what always passes: 1 to 255 characters, not only spaces.
    .meta({ minLength: 1, maxLength: 255, pattern: '\\S' });
