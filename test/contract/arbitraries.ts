// Valid values from a JSON Schema (the subset the served OpenAPI document uses), as
// fast-check arbitraries: what a property-based client such as Schemathesis derives from the
// document's request schemas. Only what the schema says is used, so a value the server refuses
// shows a rule the document does not state.

export type Schema = Record<string, unknown>;

// fast-check is a devDependency loaded at run time (property-run.ts loadFastCheck); typed loosely
// here so that a checkout without it still type-checks (the run then skips, saying why).
export type FastCheckApi = any;
interface Arbitrary<T> {
  map<U>(f: (v: T) => U): Arbitrary<U>;
  filter(f: (v: T) => boolean): Arbitrary<T>;
}

const LIMIT_ITEMS = 4;
const LIMIT_TEXT = 24;

export function arbitraryOf(fc: FastCheckApi, schema: Schema | undefined, depth = 0): Arbitrary<unknown> {
  const s = schema ?? {};
  if ('const' in s) return fc.constant(s.const);
  if (Array.isArray(s.enum)) return fc.constantFrom(...(s.enum as unknown[]));
  // Combinators: allOf merged in; one branch of anyOf or oneOf merged with the rest (the rest may
  // hold another combinator). `not`, dependentRequired and dependentSchemas are not generated
  // towards: the caller filters whole values through the schema (property-run.ts).
  if (Array.isArray(s.allOf)) {
    const { allOf, ...rest } = s;
    return arbitraryOf(fc, (allOf as Schema[]).reduce(merge, rest), depth);
  }
  for (const k of ['anyOf', 'oneOf'] as const) {
    if (Array.isArray(s[k])) {
      const { [k]: branches, ...rest } = s;
      return fc.oneof(...(branches as Schema[]).map((b) => arbitraryOf(fc, merge(rest, b), depth)));
    }
  }
  const type = s.type;
  if (Array.isArray(type)) return fc.oneof(...type.map((t) => arbitraryOf(fc, { ...s, type: t }, depth)));
  switch (type) {
    case 'string':
      return stringOf(fc, s);
    case 'integer':
    case 'number': {
      const min = (s.minimum as number | undefined) ?? (s.exclusiveMinimum !== undefined ? (s.exclusiveMinimum as number) + 1 : -1000);
      const max = (s.maximum as number | undefined) ?? (s.exclusiveMaximum !== undefined ? (s.exclusiveMaximum as number) - 1 : Math.max(min + 1000, 1000));
      if (type === 'integer') return fc.integer({ min: Math.ceil(min), max: Math.floor(max) });
      return fc.oneof(fc.integer({ min: Math.ceil(min), max: Math.floor(max) }), fc.double({ min, max, noNaN: true, noDefaultInfinity: true }));
    }
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const minLength = (s.minItems as number | undefined) ?? 0;
      const maxLength = Math.min((s.maxItems as number | undefined) ?? minLength + LIMIT_ITEMS, minLength + LIMIT_ITEMS);
      if (depth > 6) return fc.constant([]);
      const item = arbitraryOf(fc, s.items as Schema, depth + 1);
      return s.uniqueItems ? fc.uniqueArray(item, { minLength, maxLength, selector: (v: unknown) => JSON.stringify(v) }) : fc.array(item, { minLength, maxLength });
    }
    case 'object':
      return objectOf(fc, s, depth);
    default:
      if (s.properties) return objectOf(fc, s, depth);
      // No type: any JSON value (z.unknown()).
      return fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.boolean());
  }
}

/** Two schemas as one: properties merged by name, required joined, the rest of `b` over `a`. */
export function merge(a: Schema, b: Schema): Schema {
  const out: Schema = { ...a, ...b };
  if (a.properties || b.properties) {
    const props: Record<string, Schema> = { ...((a.properties ?? {}) as Record<string, Schema>) };
    for (const [n, p] of Object.entries((b.properties ?? {}) as Record<string, Schema>)) props[n] = props[n] ? merge(props[n], p) : p;
    out.properties = props;
  }
  if (a.required || b.required) out.required = [...new Set([...((a.required ?? []) as string[]), ...((b.required ?? []) as string[])])];
  if (a.type === 'object' || b.type === 'object' || out.properties) out.type = 'object';
  return out;
}

function objectOf(fc: FastCheckApi, s: Schema, depth: number): Arbitrary<unknown> {
  const props = (s.properties ?? {}) as Record<string, Schema>;
  const required = new Set((s.required ?? []) as string[]);
  const names = Object.keys(props);
  if (names.length === 0 && s.additionalProperties && typeof s.additionalProperties === 'object') {
    // A record (z.record): a few entries whose names follow propertyNames.
    const key = s.propertyNames ? stringOf(fc, s.propertyNames as Schema) : fc.string({ minLength: 1, maxLength: 12 });
    return fc.dictionary(key as Arbitrary<string>, arbitraryOf(fc, s.additionalProperties as Schema, depth + 1), { maxKeys: depth > 4 ? 0 : 3 });
  }
  if (depth > 6) {
    const minimal: Record<string, Arbitrary<unknown>> = {};
    for (const n of names) if (required.has(n)) minimal[n] = arbitraryOf(fc, props[n], depth + 1);
    return fc.record(minimal);
  }
  const model: Record<string, Arbitrary<unknown>> = {};
  // `not: {}` declares a property that must be absent.
  for (const n of names) if (!(props[n].not && Object.keys(props[n].not as object).length === 0)) model[n] = arbitraryOf(fc, props[n], depth + 1);
  return fc.record(model, { requiredKeys: names.filter((n) => required.has(n) && n in model) });
}

function stringOf(fc: FastCheckApi, s: Schema): Arbitrary<string> {
  const minLength = (s.minLength as number | undefined) ?? 0;
  const declaredMax = s.maxLength as number | undefined;
  const maxLength = declaredMax ?? Math.max(minLength + LIMIT_TEXT, LIMIT_TEXT);
  // Only declared bounds filter (a pattern's strings may be longer than the generator's own limit).
  const fits = (v: string) => [...v].length >= minLength && (declaredMax === undefined || [...v].length <= declaredMax);
  switch (s.format) {
    case 'uuid':
      return fc.uuid();
    case 'date-time':
      return fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true }).map((d: Date) => d.toISOString());
    case 'date':
      return fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true }).map((d: Date) => d.toISOString().slice(0, 10));
    case 'uri':
      return fc.webUrl({ validSchemes: ['https'] }).filter(fits);
    case 'email':
      return fc.emailAddress().filter(fits);
  }
  if (typeof s.pattern === 'string') return fc.stringMatching(new RegExp(s.pattern as string)).filter(fits);
  return fc.string({ minLength, maxLength: Math.min(maxLength, minLength + LIMIT_TEXT) });
}
