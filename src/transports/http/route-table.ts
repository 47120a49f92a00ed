// The one route table of a regional address: every route of every family (v3
// operations, the OpenAPI documents, MCP, control routes, the legacy API, the console's
// pages and API family, file downloads), compiled once. The node fast path, the
// fetch-shaped core and 404/405 all read it (docs/architecture.md "The edge").
import type { Operation } from '../../operations/define';
import type { Emulator } from '../../emulator';
import type { CallInfo } from '../../pipeline';

/** Which answers a family gives when its path matches but its method does not. */
export type RouteFamily = 'v3' | 'mcp' | 'control' | 'legacy' | 'console' | 'console-api' | 'files' | 'oauth';

export interface RouteCall {
  emu: Emulator;
  info: CallInfo;
  /** Named path parameters, raw (not percent-decoded). */
  params: Record<string, string>;
  /** The table that matched: a family answering its own 404/405 asks it (the console's API family). */
  table: RouteTable;
}

/** Answers, or returns undefined to let the next matching route (then 404) answer. */
export type RouteHandler = (req: Request, call: RouteCall) => Promise<Response | undefined> | Response | undefined;

/** A family's own answer to a method its routes do not take on a path (`allowed` in declared order). */
export type MethodRefusal = (method: string, path: string, allowed: string[], info: CallInfo) => Response;

export interface RouteSpec {
  /** An HTTP method, or '*' for a route that answers every method itself. */
  method: string;
  /** itty-style pattern (`/v3/templates/:key`); a trailing `*` matches the rest. */
  path: string;
  family: RouteFamily;
  handler: RouteHandler;
  /** Set on a v3 operation's route: the node fast path runs it without a Request. */
  op?: Operation;
  /** A pattern of its own, where the itty grammar cannot say it. */
  regex?: RegExp;
  /** Literal segments match in any case (the legacy API, docs/legacy.md). */
  caseInsensitive?: boolean;
  /** No trailing slash allowed (the console's own paths are exact). */
  exact?: boolean;
  /** A GET route that answers HEAD too; HEAD is not listed in a 405's Allow. */
  head?: boolean;
  /** A wrong method on this route's path is 404, not 405 (the areas that always answered so). */
  wrongMethod?: 'not-found';
  /** The family's own 405 (legacy and console shapes); the v3 envelope otherwise. */
  refuseMethod?: MethodRefusal;
  /** The declaration a route was made from (a control route's), for the documents built from the table. */
  declared?: object;
}

export interface Route extends RouteSpec {
  regex: RegExp;
}

/**
 * itty-router's pattern grammar (v5 `Router`, the same expression), so the v3 routes
 * match exactly as they did when itty dispatched them: `:name` is one non-empty segment,
 * `:name+` the rest, `*` anything, trailing slashes allowed unless `exact`.
 */
export function compilePattern(path: string, opts: { caseInsensitive?: boolean; exact?: boolean } = {}): RegExp {
  const c = path.replace(/\/+(\/|$)/g, '$1');
  return RegExp(
    `^${c
      .replace(/(\/?\.?):(\w+)\+/g, '($1(?<$2>[^]+))')
      .replace(/(\/?\.?):(\w+)/g, '($1(?<$2>[^$1/]+?))')
      .replace(/\./g, '\\.')
      .replace(/(\/?)\*/g, '($1.*)?')}${opts.exact ? '' : '/*'}$`,
    opts.caseInsensitive ? 'i' : '',
  );
}

/** How many segments of a pattern are literal: the legacy API's rule, the most literal route first. */
export const literalSegments = (path: string): number => path.split('/').filter((s) => s !== '' && !s.startsWith(':') && s !== '*').length;

export interface Match {
  route: Route;
  params: Record<string, string>;
}

/** A literal path segment (no parameter, no wildcard, nothing a pattern reads otherwise). */
const LITERAL = /^[A-Za-z0-9_~-][A-Za-z0-9_.~-]*$/;

/**
 * The leading literal segments of a route's pattern (at most two) that every path it matches
 * begins with: `/v3/checklists/:key` → ['v3', 'checklists']. None for a route with a regex of its
 * own or a pattern that starts with a parameter; a segment followed by anything but `/` or the
 * end (`/v3*`) ends the prefix, since the wildcard may go on inside the segment.
 */
function prefixOf(spec: RouteSpec): string[] {
  if (spec.regex) return [];
  const segs = spec.path.replace(/\/+(\/|$)/g, '$1').split('/');
  const out: string[] = [];
  for (let i = 1; i < segs.length && out.length < 2; i++) {
    if (!LITERAL.test(segs[i])) break;
    out.push(spec.caseInsensitive ? segs[i].toLowerCase() : segs[i]);
  }
  return out;
}

/** The first two segments of a request path (`/v3/checklists/x` → ['v3', 'checklists']). */
function segmentsOf(pathname: string): [string | undefined, string | undefined] {
  if (pathname[0] !== '/') return [undefined, undefined];
  const a = pathname.indexOf('/', 1);
  if (a < 0) return [pathname.slice(1), undefined];
  const b = pathname.indexOf('/', a + 1);
  return [pathname.slice(1, a), pathname.slice(a + 1, b < 0 ? undefined : b)];
}

export class RouteTable {
  readonly routes: Route[] = [];
  private readonly prefixes: string[][] = [];
  /**
   * The routes a path can match, by method and first two segments, in table order: measured,
   * trying every route's expression in turn was ~8 us of a write's and ~10% of a cheap read's
   * server CPU; a path can only match a route whose literal leading segments it begins with.
   */
  private readonly candidates = new Map<string, Route[]>();

  add(spec: RouteSpec): this {
    this.routes.push({ ...spec, regex: spec.regex ?? compilePattern(spec.path, spec) });
    this.prefixes.push(prefixOf(spec));
    this.candidates.clear();
    return this;
  }

  /** The routes of `method` whose prefix the path's first two segments allow, in table order. */
  private candidatesFor(method: string, pathname: string): Route[] {
    const [a, b] = segmentsOf(pathname);
    const key = `${method} ${a ?? ''}/${b ?? ''}`;
    let list = this.candidates.get(key);
    if (list) return list;
    const fits = (seg: string | undefined, lit: string, ci: boolean) => seg !== undefined && (ci ? seg.toLowerCase() === lit : seg === lit);
    list = this.routes.filter((route, i) => {
      if (route.method !== method && route.method !== '*' && !(method === 'HEAD' && route.head)) return false;
      const p = this.prefixes[i];
      const ci = route.caseInsensitive === true;
      return (p.length < 1 || fits(a, p[0], ci)) && (p.length < 2 || fits(b, p[1], ci));
    });
    // Bounded: request paths are the client's to choose.
    if (this.candidates.size >= 2000) this.candidates.clear();
    this.candidates.set(key, list);
    return list;
  }

  /** Adds a family's routes most literal segments first (declared order on a tie): a literal path wins over a `:name` one. */
  addRanked(specs: RouteSpec[]): this {
    const ranked = specs.map((s, i) => ({ s, i, n: literalSegments(s.path) })).sort((a, b) => b.n - a.n || a.i - b.i);
    for (const { s } of ranked) this.add(s);
    return this;
  }

  /** Every route that matches, in the order they were added (first match first). */
  *matches(method: string, pathname: string): Generator<Match> {
    for (const route of this.candidatesFor(method, pathname)) {
      const m = route.regex.exec(pathname);
      if (m) yield { route, params: (m.groups as Record<string, string> | undefined) ?? {} };
    }
  }

  /** The first route that matches, if any. */
  match(method: string, pathname: string): Match | undefined {
    for (const route of this.candidatesFor(method, pathname)) {
      const m = route.regex.exec(pathname);
      if (m) return { route, params: (m.groups as Record<string, string> | undefined) ?? {} };
    }
    return undefined;
  }

  /** For 405: the methods routes of this family allow on the path (in the order declared). */
  allowed(pathname: string, family: RouteFamily): string[] {
    const out = new Set<string>();
    for (const route of this.routes) {
      if (route.family === family && route.method !== '*' && route.wrongMethod !== 'not-found' && route.regex.test(pathname)) out.add(route.method);
    }
    return [...out];
  }

  /**
   * The one 404/405 rule, once no route answered: the first route whose path matches (any
   * method) names the family; if that family takes other methods there, 405 in its shape
   * (its `refuseMethod`, else `fallback`); otherwise undefined (404).
   */
  unrouted(method: string, pathname: string): { route: Route; allowed: string[] } | undefined {
    const owner = this.routes.find((r) => r.method !== '*' && r.wrongMethod !== 'not-found' && r.regex.test(pathname));
    if (!owner) return undefined;
    const allowed = this.allowed(pathname, owner.family);
    // A route of the method matched and declined: nothing is served here (404).
    if (allowed.includes(method) || (method === 'HEAD' && this.routes.some((r) => r.head && r.family === owner.family && r.regex.test(pathname)))) return undefined;
    return { route: owner, allowed };
  }
}
