// Output shapes shared by every area (spec v3 2.2, 2.4). Output schemas are strict:
// a property the schema does not name is a contract bug (src/contract/check.ts).
import { z } from 'zod';
import { lazy } from '../../lazy';

/** Timestamp (spec v3 2.2): ISO 8601 UTC instant ending in Z. */
export const timestamp = (description = 'ISO 8601 UTC instant ending in Z') => z.iso.datetime({ offset: false, local: false }).describe(description);

/** A GUID key (spec v3 2.1). */
export const guidOut = (description: string) => z.guid().describe(description);

/** An integer id (members, groups, schedules: spec v3 2.1). */
export const intIdOut = (description: string) => z.number().int().min(1).describe(description);

/** A count. */
export const count = (description: string) => z.number().int().min(0).describe(description);

/** A link into the app (`{base_url}/app/...`). */
export const appUrl = (description = 'Link in the app') => z.string().describe(description);

/** User reference (spec v3 2.4): an author who left keeps the name and loses the email. */
export const userRef = lazy(() => z
  .strictObject({
    name: z.string().describe('Full name'),
    email: z.string().optional().describe('Email; absent for a member who left'),
  })
  .describe('User reference'));

/** Page envelope (spec v3 2.2, 4.1 rule 11): use hasMore, not page length. */
export const page = <T extends z.ZodType>(item: T, description = 'Page of results') =>
  z
    .strictObject({
      items: z.array(item).describe('This page'),
      nextCursor: z.string().optional().describe('Send as `after` (with the same other arguments) for the next page; absent on the last page'),
      hasMore: z.boolean().describe('Whether another page follows'),
      total: count('Number of items over all pages'),
    })
    .describe(description);

/** An answer holding one named list, e.g. `{operators: [...]}`. */
export const listUnder = <K extends string, T extends z.ZodType>(key: K, item: T, listDescription: string) =>
  z.strictObject({ [key]: z.array(item).describe(listDescription) } as Record<K, z.ZodArray<T>>);
