// The /v3 fast path: a v3 operation answered from node's own IncomingMessage and
// ServerResponse, without building a WHATWG Request and Response through
// @hono/node-server (measured: most of the per-request cost of the stack; see
// docs/performance.md "Measured decisions"). It runs the same
// pipeline (runCall) and writes the same bytes as the fetch path in app.ts.
// Anything it is not sure of (an unusual request target or Host, no matching
// route, HEAD/OPTIONS, /v3/openapi.json, any fault rule set) it declines, and the fetch
// path answers.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Emulator } from '../../emulator';
import type { Region } from '../../context';
import type { Operation } from '../../operations/define';
import { runCall, type Answer } from '../../pipeline';
import { startMark } from '../../platform/journal';
import { partitionOf } from '../../contract/compile';
import { buildInput, inputOrBadBody } from './rest';
import { declaresBody, readNodeJson } from '../web/body';
import { errorParts, jsonParts, type Parts } from '../web/respond';
import { callInfoFrom, headerValue } from './call-info';
import type { RouteTable } from './route-table';

/**
 * Request targets the adapter would use as they are (its reValidRequestUrl, less `#`;
 * `%` and `'` excluded too, so the path and query need no URL parser to read the same).
 */
const PLAIN_TARGET = /^\/v3\/[!$&(-;=?-[\]_a-z~]*$/;
const DOT_SEGMENT = /\/\.\.?(?:[/?#]|$)/;
/** Host headers the adapter takes as they are (its reValidHost). */
const PLAIN_HOST = /^[a-z0-9._-]+(?::(?:[1-5]\d{3,4}|[6-9]\d{3}))?$/;

export type NodeHandler = (req: IncomingMessage, res: ServerResponse) => boolean;

/** Returns a handler that answers a /v3 operation and returns true, or returns false to let the fetch path answer. */
export function createNodeRest(emu: Emulator, region: Region, table: RouteTable): NodeHandler {
  const wants = new Map<Operation, boolean>();
  const wantsBody = (op: Operation) => {
    let w = wants.get(op);
    if (w === undefined) wants.set(op, (w = partitionOf(op).hasBody));
    return w;
  };

  function serve(req: IncomingMessage, res: ServerResponse, op: Operation, params: Record<string, string>, target: string, q: number, path: string): void {
    const mark = startMark(emu);
    const h = req.headers;
    // The URL parser drops an empty query's `?` from url.search: so does this.
    const info = callInfoFrom((name) => headerValue(h, name), region, req.socket.remoteAddress ?? 'unknown', q === target.length - 1 ? path : target, mark);
    const requestId = info.requestId;
    const query = () => new URLSearchParams(q < 0 ? '' : target.slice(q + 1));
    const write = (answer: Answer | undefined, thrown?: unknown) => {
      let parts: Parts;
      try {
        parts = answer === undefined ? errorParts(thrown, requestId, {}, emu.log) : answer.ok ? jsonParts(answer.status, answer.body, answer.headers) : errorParts(answer.error, requestId, answer.headers, emu.log);
      } catch (e) {
        parts = errorParts(e, requestId, {}, emu.log);
      }
      writeParts(res, parts);
      emu.journal.finish(mark, req.method!, path, parts.status, region);
    };
    let answer: Answer | Promise<Answer>;
    try {
      answer = runCall(emu, {
        op,
        info,
        readInput: wantsBody(op)
          ? (maxBytes) => inputOrBadBody(op, async () => buildInput(op, query, params, await readNodeJson(req, maxBytes)), () => buildInput(op, query, params, undefined))
          : op.method !== 'GET' && declaresBody(h['content-length'], h['transfer-encoding'])
            ? (maxBytes) => inputOrBadBody(op, async () => (await readNodeJson(req, maxBytes), buildInput(op, query, params, undefined)), () => buildInput(op, query, params, undefined))
            : () => buildInput(op, query, params, undefined),
      });
    } catch (e) {
      return write(undefined, e);
    }
    // A read without a body is answered in the same turn as its request arrived.
    if (answer instanceof Promise) answer.then(write, (e) => write(undefined, e));
    else write(answer);
  }

  return (req, res) => {
    // Fault rules (src/faults) are matched on the fetch path, before routing.
    if (emu.faults.size > 0) return false;
    const target = req.url ?? '';
    if (!PLAIN_TARGET.test(target) || DOT_SEGMENT.test(target)) return false;
    const host = req.headers.host;
    if (host && !PLAIN_HOST.test(host)) return false;
    const q = target.indexOf('?');
    const path = q < 0 ? target : target.slice(0, q);
    // The first route of the one table decides, as on the fetch path; only an operation's is served here.
    const m = table.match(req.method ?? '', path);
    if (!m?.route.op) return false;
    serve(req, res, m.route.op, m.params, target, q, path);
    return true;
  };
}

export function writeParts(res: ServerResponse, p: Parts): void {
  if (p.body === null) {
    res.writeHead(p.status, p.headers);
    res.end();
    return;
  }
  // The parts' headers are a fresh object of the answer's own (jsonParts, errorParts): no copy.
  p.headers['Content-Length'] = String(typeof p.body === 'string' ? Buffer.byteLength(p.body) : p.body.byteLength);
  res.writeHead(p.status, p.headers);
  res.end(p.body);
}
