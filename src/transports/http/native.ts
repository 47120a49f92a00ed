// The /v3 fast path: a v3 operation answered from node's own IncomingMessage and
// ServerResponse, without building a WHATWG Request and Response through
// @hono/node-server (measured: most of the per-request cost of the stack; see
// docs/architecture.md "Measured performance decisions"). It runs the same
// pipeline (runCall) and writes the same bytes as the fetch path in app.ts.
// Anything it is not sure of (an unusual request target or Host, no matching
// route, HEAD/OPTIONS, /v3/openapi.json, any fault rule set) it declines, and the fetch
// path answers.
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { Router } from 'itty-router';
import type { Emulator } from '../../emulator';
import type { Region } from '../../context';
import type { Operation } from '../../operations/define';
import { runCall, type CallInfo } from '../../pipeline';
import type { JournalMark } from '../../platform/journal';
import { partitionOf } from '../../contract/partition';
import { buildInput } from './rest';
import { declaresBody, readNodeJson } from './body';
import { errorParts, jsonParts, requestIdFrom, type Parts } from './respond';

/**
 * Request targets the adapter would use as they are (its reValidRequestUrl, less `#`;
 * `%` and `'` excluded too, so the path and query need no URL parser to read the same).
 */
const PLAIN_TARGET = /^\/v3\/[!$&(-;=?-[\]_a-z~]*$/;
const DOT_SEGMENT = /\/\.\.?(?:[/?#]|$)/;
/** Host headers the adapter takes as they are (its reValidHost). */
const PLAIN_HOST = /^[a-z0-9._-]+(?::(?:[1-5]\d{3,4}|[6-9]\d{3}))?$/;

/** A header from node's IncomingHttpHeaders, joined like Headers.get joins repeats. */
export const headerValue = (raw: IncomingHttpHeaders, name: string): string | null => {
  const v = raw[name];
  return v === undefined ? null : Array.isArray(v) ? v.join(', ') : v;
};

interface Route {
  regex: RegExp;
  op: Operation;
  wantsBody: boolean;
}

/** itty-router's own route table (same patterns, same first-match order), grouped by method. */
function routeTable(ops: Operation[]): Map<string, Route[]> {
  const itty = Router<never, []>();
  for (const op of ops) (itty as unknown as Record<string, (p: string, h: unknown) => void>)[op.method.toLowerCase()](op.path, op);
  const out = new Map<string, Route[]>();
  for (const [method, regex, handlers] of itty.routes as unknown as [string, RegExp, Operation[]][]) {
    const op = handlers[0];
    let list = out.get(method);
    if (!list) out.set(method, (list = []));
    list.push({ regex, op, wantsBody: partitionOf(op).hasBody });
  }
  return out;
}

export type NodeHandler = (req: IncomingMessage, res: ServerResponse) => boolean;

/** Returns a handler that answers a /v3 operation and returns true, or returns false to let the fetch path answer. */
export function createNodeRest(emu: Emulator, region: Region): NodeHandler {
  const routes = routeTable(emu.ops);

  async function serve(req: IncomingMessage, res: ServerResponse, route: Route, params: Record<string, string>, target: string, q: number, path: string): Promise<void> {
    const at = emu.clock.now();
    const started = performance.now();
    const h = req.headers;
    const requestId = requestIdFrom(headerValue(h, 'x-request-id'));
    const mark: JournalMark = { requestId };
    // The URL parser drops an empty query's `?` from url.search: so does this.
    const pathAndQuery = q === target.length - 1 ? path : target;
    const info: CallInfo = {
      requestId,
      apiKey: headerValue(h, 'x-api-key'),
      region,
      sourceIp: req.socket.remoteAddress ?? 'unknown',
      timezoneHeader: headerValue(h, 'x-svc-timezone'),
      idempotencyKey: headerValue(h, 'idempotency-key'),
      transport: 'rest',
      pathAndQuery,
      journal: mark,
    };
    const { op, wantsBody } = route;
    let parts: Parts;
    try {
      const answer = await runCall(emu, {
        op,
        info,
        readInput: wantsBody
          ? async (maxBytes) => buildInput(op, () => new URLSearchParams(q < 0 ? '' : target.slice(q + 1)), params, await readNodeJson(req, maxBytes))
          : op.method !== 'GET' && declaresBody(h['content-length'], h['transfer-encoding'])
            ? async (maxBytes) => (await readNodeJson(req, maxBytes), buildInput(op, () => new URLSearchParams(q < 0 ? '' : target.slice(q + 1)), params, undefined))
            : () => buildInput(op, () => new URLSearchParams(q < 0 ? '' : target.slice(q + 1)), params, undefined),
      });
      parts = answer.ok ? jsonParts(answer.status, answer.body, answer.headers) : errorParts(answer.error, requestId, answer.headers, emu.log);
    } catch (e) {
      parts = errorParts(e, requestId, {}, emu.log);
    }
    writeParts(res, parts);
    emu.journal.record({
      at,
      method: req.method!,
      path,
      status: parts.status,
      keyName: mark.keyName,
      requestId,
      durationMs: Math.round((performance.now() - started) * 100) / 100,
      region,
    });
  }

  return (req, res) => {
    // Fault rules (src/faults) are matched on the fetch path, before routing.
    if (emu.faults.size > 0) return false;
    const target = req.url ?? '';
    if (!PLAIN_TARGET.test(target) || DOT_SEGMENT.test(target)) return false;
    const host = req.headers.host;
    if (host && !PLAIN_HOST.test(host)) return false;
    const list = routes.get(req.method ?? '');
    if (!list) return false;
    const q = target.indexOf('?');
    const path = q < 0 ? target : target.slice(0, q);
    if (path === '/v3/openapi.json') return false;
    for (const route of list) {
      const m = route.regex.exec(path);
      if (m) {
        void serve(req, res, route, (m.groups as Record<string, string> | undefined) ?? {}, target, q, path);
        return true;
      }
    }
    return false;
  };
}

export function writeParts(res: ServerResponse, p: Parts): void {
  if (p.body === null) {
    res.writeHead(p.status, p.headers);
    res.end();
    return;
  }
  res.writeHead(p.status, { ...p.headers, 'Content-Length': String(typeof p.body === 'string' ? Buffer.byteLength(p.body) : p.body.byteLength) });
  res.end(p.body);
}
