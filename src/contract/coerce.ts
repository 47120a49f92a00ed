// Query and path strings to the types the operation's schema declares. Explicit,
// because generic coercion turns "false" into true: only `true` in any letter
// case switches a boolean on (spec v3 4.4); integers must be written as integers.
import type { z } from 'zod';

type Kind = 'boolean' | 'number' | 'other';

export function kindOf(schema: z.ZodType | undefined): Kind {
  let s = schema as unknown as { _zod?: { def: { type: string; innerType?: unknown; in?: unknown } } } | undefined;
  for (let i = 0; i < 10 && s?._zod; i++) {
    const def = s._zod.def;
    if (def.type === 'boolean') return 'boolean';
    if (def.type === 'number' || def.type === 'int') return 'number';
    if (def.innerType) s = def.innerType as typeof s;
    else if (def.type === 'pipe' && def.in) s = def.in as typeof s;
    else return 'other';
  }
  return 'other';
}

export type Coercer = (value: string) => unknown;

const asBoolean: Coercer = (value) => /^true$/i.test(value.trim());
const asInteger: Coercer = (value) => (/^\s*[+-]?\d+\s*$/.test(value) ? Number(value) : value);
const asText: Coercer = (value) => value;

/** The coercer of one input property (a compiled operation keeps one per property it reads from a string). */
export function coercerOf(schema: z.ZodType | undefined): Coercer {
  const k = kindOf(schema);
  return k === 'boolean' ? asBoolean : k === 'number' ? asInteger : asText;
}

export const coerceString = (shape: z.ZodRawShape, name: string, value: string): unknown => coercerOf(shape[name] as z.ZodType)(value);
