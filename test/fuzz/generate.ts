// Request values from an operation's zod schema (through z.toJSONSchema), then
// broken on purpose. Strings whose property names say they are keys get GUIDs
// of the fixture, so a fair share of requests reach real resources.
import type { Rng } from './rng';
import { FIXTURE_GUIDS, FIXTURE_INTS, NASTY_STRINGS } from './pools';

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Schema = Record<string, any>;

const GUID_NAME = /(^key$|Key$|^id$|Id$|^after$)/;
const WORDS = ['alpha', 'Onboarding', 'Expense', 'Mia', 'ops', 'urgent', 'x', 'Employee Onboarding', 'name', 'ShortText'];

/** GUID prefixes of the fixture by what they name (fixtures/demo: 2... templates, 3... checklists, ...). */
const PREFIX_BY_SEGMENT: [RegExp, string[]][] = [
  [/templates?/i, ['20000000-']],
  [/checklists?/i, ['30000000-']],
  [/tasks?/i, ['21000000-', '40000000-']],
  [/fields?|content/i, ['22000000-']],
  [/data-?sets?/i, ['50000000-']],
];

export class Generator {
  /** GUIDs seen in successful answers (drafts, subscriptions made during the run). */
  static harvested: string[] = [];
  private readonly hinted: string[];

  constructor(
    private readonly rng: Rng,
    private readonly root: Schema,
    /** The route, for choosing GUIDs of the kind it names. */
    route = '',
  ) {
    const prefixes = PREFIX_BY_SEGMENT.filter(([re]) => re.test(route)).flatMap(([, p]) => p);
    this.hinted = FIXTURE_GUIDS.filter((g) => prefixes.some((p) => g.startsWith(p)));
  }

  private guid(): string {
    const rng = this.rng;
    if (this.hinted.length && rng.chance(0.5)) return rng.pick(this.hinted);
    if (Generator.harvested.length && rng.chance(0.4)) return rng.pick(Generator.harvested);
    return rng.pick(FIXTURE_GUIDS);
  }

  private resolve(s: Schema): Schema {
    for (let i = 0; i < 20 && s && typeof s.$ref === 'string'; i++) {
      const ref: string = s.$ref;
      if (ref === '#') s = this.root;
      else {
        let node: Schema | undefined = this.root;
        for (const part of ref.replace(/^#\//, '').split('/')) node = node?.[decodeURIComponent(part)];
        s = node ?? {};
      }
    }
    return s ?? {};
  }

  /** A value the schema probably accepts. `name` is the property it is for. */
  value(schema: Schema, name = '', depth = 0): Json {
    const s = this.resolve(schema);
    const rng = this.rng;
    if (s.const !== undefined) return s.const;
    if (Array.isArray(s.enum)) return rng.pick(s.enum);
    const alts = s.anyOf ?? s.oneOf;
    if (Array.isArray(alts) && alts.length) return this.value(rng.pick(alts), name, depth);
    if (Array.isArray(s.allOf) && s.allOf.length) return this.value(s.allOf[0], name, depth);
    let type = s.type;
    if (Array.isArray(type)) type = rng.pick(type);
    if (!type) type = s.properties ? 'object' : s.items ? 'array' : undefined;
    switch (type) {
      case 'string':
        return this.string(s, name);
      case 'integer':
      case 'number': {
        if (/Id$|^id$/.test(name) && rng.chance(0.7)) return rng.pick(FIXTURE_INTS);
        const lo = typeof s.minimum === 'number' ? s.minimum : 0;
        const hi = typeof s.maximum === 'number' ? Math.min(s.maximum, lo + 100) : lo + 100;
        return rng.int(lo, hi);
      }
      case 'boolean':
        return rng.chance(0.5);
      case 'null':
        return null;
      case 'array': {
        if (depth > 6) return [];
        const min = s.minItems ?? 0;
        const n = Math.min(rng.int(min, min + 2), s.maxItems ?? 50);
        return Array.from({ length: n }, () => this.value(s.items ?? {}, name, depth + 1));
      }
      case 'object': {
        const out: Record<string, Json> = {};
        if (depth > 8) return out;
        const required = new Set<string>(s.required ?? []);
        for (const [k, sub] of Object.entries<Schema>(s.properties ?? {})) {
          if (required.has(k) || rng.chance(0.5)) out[k] = this.value(sub, k, depth + 1);
        }
        return out;
      }
      default:
        return this.anyValue(depth);
    }
  }

  private string(s: Schema, name: string): string {
    const rng = this.rng;
    if (GUID_NAME.test(name) && rng.chance(0.85)) return this.guid();
    if (/eventType/.test(name)) return rng.pick(['new_checklist', 'task_completed', 'checklist_completed', 'file_uploaded', 'comment_created', 'task_assigned', 'data_set.record.created', 'nope']);
    if (s.format === 'email' || /email/i.test(name)) return rng.pick(['mia@acme.test', 'ada@acme.test', 'nobody@example.test']);
    if (s.format === 'date-time' || /DateTime$|Until$/.test(name)) return new Date(Date.UTC(2030, rng.int(0, 11), rng.int(1, 28))).toISOString();
    if (s.format === 'uri' || /url$/i.test(name)) return rng.pick(['http://127.0.0.1:9/hook', 'https://example.test/hook']);
    let w = rng.pick(WORDS);
    if (typeof s.minLength === 'number' && w.length < s.minLength) w = w.padEnd(s.minLength, 'x');
    if (typeof s.maxLength === 'number' && w.length > s.maxLength) w = w.slice(0, s.maxLength);
    return w;
  }

  anyValue(depth = 0): Json {
    const rng = this.rng;
    return rng.weighted<() => Json>([
      [3, () => rng.pick(WORDS)],
      [2, () => rng.int(-5, 500)],
      [1, () => rng.chance(0.5)],
      [1, () => null],
      [1, () => (depth > 3 ? [] : [this.anyValue(depth + 1)])],
      [1, () => (depth > 3 ? {} : { [rng.pick(WORDS)]: this.anyValue(depth + 1) })],
    ])();
  }
}

// ── breaking values ─────────────────────────────────────────────────────────

/** Every place in a value: [] is the value itself. */
export function paths(v: Json, prefix: (string | number)[] = [], out: (string | number)[][] = [], limit = 200): (string | number)[][] {
  out.push(prefix);
  if (out.length >= limit) return out;
  if (Array.isArray(v)) v.forEach((x, i) => paths(x, [...prefix, i], out, limit));
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) paths(x, [...prefix, k], out, limit);
  return out;
}

function getAt(v: Json, p: (string | number)[]): Json | undefined {
  let cur: Json | undefined = v;
  for (const k of p) cur = cur && typeof cur === 'object' ? (cur as Record<string, Json>)[k as string] : undefined;
  return cur;
}

function setAt(v: Json, p: (string | number)[], value: Json | undefined): Json {
  if (p.length === 0) return value === undefined ? null : value;
  const parent = getAt(v, p.slice(0, -1));
  if (!parent || typeof parent !== 'object') return v;
  const k = p[p.length - 1];
  if (value === undefined) {
    if (Array.isArray(parent)) parent.splice(k as number, 1);
    else delete (parent as Record<string, Json>)[k as string];
  } else (parent as Record<string, Json>)[k as string] = value;
  return v;
}

/** Deeper than JSON.stringify can write (about 3,000 levels): built as text. */
export function deepText(depth: number, kind: 'array' | 'object'): string {
  return kind === 'array' ? '['.repeat(depth) + '1' + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
}

export function deepNest(depth: number, kind: 'array' | 'object'): Json {
  let v: Json = 1;
  for (let i = 0; i < depth; i++) v = kind === 'array' ? [v] : { a: v };
  return v;
}

/** A GUID with one character changed: well-formed, names nothing (or, rarely, breaks the form). */
export function guidOffByOne(rng: Rng, g: string): string {
  const i = rng.pick([...g].map((c, j) => (c === '-' ? -1 : j)).filter((j) => j >= 0));
  const c = g[i];
  const repl = rng.chance(0.9) ? (c === 'f' ? '0' : c === '9' ? 'a' : String.fromCharCode(c.charCodeAt(0) + 1)) : rng.pick(['g', 'Z', '-', ' ', '']);
  return g.slice(0, i) + repl + g.slice(i + 1);
}

export const MUTATIONS = [
  'wrongType',
  'remove',
  'extraProperty',
  'hugeString',
  'emptyString',
  'deepNesting',
  'guidOffByOne',
  'bigInteger',
  'negative',
  'fractional',
  'arrayForObject',
  'objectForArray',
  'null',
  'nastyString',
] as const;
export type Mutation = (typeof MUTATIONS)[number];

/** Breaks one place of `v` (a copy); returns the new value and what was done. */
export function mutate(rng: Rng, v: Json, gen: Generator): { value: Json; mutation: Mutation } {
  const copy = JSON.parse(JSON.stringify(v)) as Json;
  const all = paths(copy);
  const nonRoot = all.filter((p) => p.length > 0);
  const p = nonRoot.length && rng.chance(0.9) ? rng.pick(nonRoot) : rng.pick(all);
  const cur = getAt(copy, p);
  const mutation = rng.pick(MUTATIONS);
  const put = (x: Json | undefined) => ({ value: setAt(copy, p, x), mutation });
  switch (mutation) {
    case 'wrongType': {
      const t = cur === null ? 'null' : Array.isArray(cur) ? 'array' : typeof cur;
      const options: Json[] = [1, 'one', true, [], {}, null, 1.5].filter((x) => (x === null ? 'null' : Array.isArray(x) ? 'array' : typeof x) !== t);
      return put(rng.pick(options));
    }
    case 'remove':
      return p.length ? put(undefined) : { value: {}, mutation };
    case 'extraProperty': {
      const target = cur && typeof cur === 'object' && !Array.isArray(cur) ? cur : copy && typeof copy === 'object' && !Array.isArray(copy) ? copy : null;
      if (target) (target as Record<string, Json>)[rng.pick(['__proto__', 'constructor', 'extra', 'id', 'workspaceId', 'isAdmin', 'x'.repeat(300)])] = gen.anyValue();
      return { value: copy, mutation };
    }
    case 'hugeString':
      return put('x'.repeat(rng.pick([1001, 10_001, 100_001, 600_000])));
    case 'emptyString':
      return put('');
    case 'deepNesting':
      return put(deepNest(rng.pick([50, 500, 1500]), rng.chance(0.5) ? 'array' : 'object'));
    case 'guidOffByOne':
      return put(guidOffByOne(rng, typeof cur === 'string' && cur.length === 36 ? cur : rng.pick(FIXTURE_GUIDS)));
    case 'bigInteger':
      return put(rng.pick([2 ** 31, 2 ** 53 + 2, 1e308, -(2 ** 63), 9_007_199_254_740_993]));
    case 'negative':
      return put(rng.pick([-1, -0, -2147483648]));
    case 'fractional':
      return put(rng.pick([0.5, 1.0000001, 101.25, 1e-300]));
    case 'arrayForObject':
      return put([cur ?? 1]);
    case 'objectForArray':
      return put({ 0: Array.isArray(cur) ? (cur[0] ?? 1) : (cur ?? 1) });
    case 'null':
      return put(null);
    case 'nastyString':
      return put(rng.pick(NASTY_STRINGS));
  }
}
