// Paged lists (spec v3 4.1 rule 11): opaque cursors bound to the filters, sort,
// pageSize and member that produced them; envelope items/nextCursor/hasMore/total.
import { validationError } from '../errors';
import { sha256 } from '../ids';

export interface Page<T> {
  items: T[];
  nextCursor?: string;
  hasMore: boolean;
  total: number;
}

export interface Sort {
  field: string;
  dir: 'asc' | 'desc';
}

/** `field`, `field:asc`, `field:desc` from the allowed fields; refused with field `sort`. */
export function parseSort(value: string | undefined, allowed: readonly string[], fallback: Sort): Sort {
  if (value === undefined) return fallback;
  const m = /^\s*([A-Za-z]+)\s*(?::\s*(asc|desc)\s*)?$/i.exec(value);
  const field = m && allowed.find((a) => a.toLowerCase() === m[1].toLowerCase());
  if (!m || !field) throw validationError(`sort must be one of ${allowed.join(', ')}, optionally followed by :asc or :desc.`, 'sort');
  return { field, dir: (m[2]?.toLowerCase() as 'asc' | 'desc') ?? 'asc' };
}

/** pageSize where out of range or non-numeric reads as 50 (list_tags, upgrades). */
export function lenientPageSize(v: unknown): number {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : NaN;
  return Number.isInteger(n) && n >= 1 && n <= 100 ? n : 50;
}

/**
 * What every cursor is also bound to: the workspace, so it never crosses workspaces. Not the key:
 * spec v3 4.1 rule 11 binds a cursor to the filters, sort and pageSize, and only my-work's to the
 * member (src/domain/mywork/list.ts), so another key of the workspace may send the same query on.
 */
export const cursorScope = (ctx: { workspace: { id: number } }) => [ctx.workspace.id];

const bindingOf = (binding: unknown) => sha256(JSON.stringify(binding)).slice(0, 16);

export function encodeCursor(offset: number, binding: unknown): string {
  return Buffer.from(JSON.stringify({ o: offset, b: bindingOf(binding) })).toString('base64url');
}

/** The offset a cursor stands for; refused (field `after`) when malformed or made for another query. */
export function decodeCursor(after: string | undefined, binding: unknown): number {
  if (after === undefined) return 0;
  let parsed: { o?: unknown; b?: unknown };
  try {
    parsed = JSON.parse(Buffer.from(after, 'base64url').toString('utf8'));
  } catch {
    throw validationError('after is not a cursor this API returned.', 'after');
  }
  if (!parsed || typeof parsed.o !== 'number' || !Number.isInteger(parsed.o) || parsed.o < 0 || typeof parsed.b !== 'string') {
    throw validationError('after is not a cursor this API returned.', 'after');
  }
  if (parsed.b !== bindingOf(binding)) {
    throw validationError('after was made for a different query: send the same filters, sort and pageSize (and key) as the request that returned it.', 'after');
  }
  return parsed.o;
}

/** Pages an already filtered and sorted list. */
export function paginate<T, R = T>(all: T[], pageSize: number, after: string | undefined, binding: unknown, map?: (t: T) => R): Page<R> {
  const offset = decodeCursor(after, binding);
  const slice = all.slice(offset, offset + pageSize);
  const hasMore = offset + pageSize < all.length;
  return {
    items: (map ? slice.map(map) : slice) as R[],
    ...(hasMore ? { nextCursor: encodeCursor(offset + pageSize, binding) } : {}),
    hasMore,
    total: all.length,
  };
}

// One collator for every comparison: localeCompare with options builds a new one per call.
// Made on the first comparison: building it loads ICU's collation data, which a start need not pay.
let collator: Intl.Collator | undefined;
export const compareText = (a: string, b: string): number => (collator ??= new Intl.Collator('en', { sensitivity: 'base' })).compare(a, b);
