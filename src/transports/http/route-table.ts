// The one route table of a regional address: every route of every family (v3
// operations, the OpenAPI documents, MCP, control routes, and the prefixes the legacy
// API and the console answer under), compiled once. The node fast path, the
// fetch-shaped core and 404/405 all read it (docs/architecture.md "The edge").
import type { Operation } from '../../operations/define';
import type { Emulator } from '../../emulator';
import type { CallInfo } from '../../pipeline';

/** Which answers a family gives when its path matches but its method does not. */
export type RouteFamily = 'v3' | 'mcp' | 'control' | 'legacy' | 'console' | 'files';

export interface RouteCall {
  emu: Emulator;
  info: CallInfo;
  /** Named path parameters, raw (not percent-decoded). */
  params: Record<string, string>;
}

/** Answers, or returns undefined to let the next matching route (then 404) answer. */
export type RouteHandler = (req: Request, call: RouteCall) => Promise<Response | undefined> | Response | undefined;

export interface RouteSpec {
  /** An HTTP method, or '*' for a route that answers every method itself. */
  method: string;
  /** itty-style pattern (`/v3/templates/:key`); a trailing `*` matches the rest. */
  path: string;
  family: RouteFamily;
  handler: RouteHandler;
  /** Set on a v3 operation's route: the node fast path runs it without a Request. */
  op?: Operation;
  /** A pattern of its own, where the itty grammar cannot say it (an exact path). */
  regex?: RegExp;
  /** The declaration a route was made from (a control route's), for the documents built from the table. */
  declared?: object;
}

export interface Route extends RouteSpec {
  regex: RegExp;
}

/**
 * itty-router's pattern grammar (v5 `Router`, the same expression), so the v3 routes
 * match exactly as they did when itty dispatched them: `:name` is one non-empty segment,
 * `:name+` the rest, `*` anything, trailing slashes allowed.
 */
export function compilePattern(path: string): RegExp {
  const c = path.replace(/\/+(\/|$)/g, '$1');
  return RegExp(
    `^${c
      .replace(/(\/?\.?):(\w+)\+/g, '($1(?<$2>[^]+))')
      .replace(/(\/?\.?):(\w+)/g, '($1(?<$2>[^$1/]+?))')
      .replace(/\./g, '\\.')
      .replace(/(\/?)\*/g, '($1.*)?')}/*$`,
  );
}

export interface Match {
  route: Route;
  params: Record<string, string>;
}

export class RouteTable {
  readonly routes: Route[] = [];

  add(spec: RouteSpec): this {
    this.routes.push({ ...spec, regex: spec.regex ?? compilePattern(spec.path) });
    return this;
  }

  /** Every route that matches, in the order they were added (first match first). */
  *matches(method: string, pathname: string): Generator<Match> {
    for (const route of this.routes) {
      if (route.method !== method && route.method !== '*') continue;
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
    for (const route of this.routes) if (route.family === family && route.method !== '*' && route.regex.test(pathname)) out.add(route.method);
    return [...out];
  }
}
