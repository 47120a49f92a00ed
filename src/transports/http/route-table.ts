// The one route table of a regional address: every route of every family (v3
// operations, the OpenAPI documents, MCP, control routes, the legacy API, the console's
// pages and API family, file downloads), compiled once. The node fast path, the
// fetch-shaped core and 404/405 all read it (docs/architecture.md "The edge").
import type { Operation } from '../../operations/define';
import type { Emulator } from '../../emulator';
import type { CallInfo } from '../../pipeline';

/** Which answers a family gives when its path matches but its method does not. */
export type RouteFamily = 'v3' | 'mcp' | 'control' | 'legacy' | 'console' | 'console-api' | 'files';

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

export class RouteTable {
  readonly routes: Route[] = [];

  add(spec: RouteSpec): this {
    this.routes.push({ ...spec, regex: spec.regex ?? compilePattern(spec.path, spec) });
    return this;
  }

  /** Adds a family's routes most literal segments first (declared order on a tie): a literal path wins over a `:name` one. */
  addRanked(specs: RouteSpec[]): this {
    const ranked = specs.map((s, i) => ({ s, i, n: literalSegments(s.path) })).sort((a, b) => b.n - a.n || a.i - b.i);
    for (const { s } of ranked) this.add(s);
    return this;
  }

  /** Every route that matches, in the order they were added (first match first). */
  *matches(method: string, pathname: string): Generator<Match> {
    for (const route of this.routes) {
      if (route.method !== method && route.method !== '*' && !(method === 'HEAD' && route.head)) continue;
      const m = route.regex.exec(pathname);
      if (m) yield { route, params: (m.groups as Record<string, string> | undefined) ?? {} };
    }
  }

  /** The first route that matches, if any. */
  match(method: string, pathname: string): Match | undefined {
    for (const m of this.matches(method, pathname)) return m;
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
