// The /v3 fast path: a v3 operation answered from node's own IncomingMessage and
// ServerResponse, without building a WHATWG Request and Response through
// @hono/node-server (measured: most of the per-request cost of the stack; see
// docs/performance.md "Measured decisions"). It calls the same serving function
// (serveOperation, rest.ts) and writer (answerParts) as the fetch path, so the bytes are the same.
// Anything it is not sure of (an unusual request target or Host, no matching
// route, HEAD/OPTIONS, /v3/openapi.json, any fault rule set) it declines, and the fetch
// path answers.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Emulator } from '../../emulator';
import type { Region } from '../../context';
import type { Operation } from '../../operations/define';
import type { Answer } from '../../pipeline';
import { startMark } from '../../platform/journal';
import { serveOperation } from './rest';
import { readNodeJson } from '../web/body';
import { answerParts, type Parts } from '../web/respond';
import { callInfoFrom, headerValue } from './call-info';
import type { RouteTable } from './route-table';

/**
 * Request targets the adapter would use as they are (its reValidRequestUrl, less `#`;
 * `'` excluded too, so the path and query need no URL parser to read the same).
 * These three are copies of the adapter's internals: test/fast-path-pin.test.ts reads the
 * adapter's own source and fails when it no longer holds them as ADAPTER_SOURCES records.
 */
export const PLAIN_TARGET = /^\/v3\/[!$&(-;=?-[\]_a-z~]*$/;
export const DOT_SEGMENT = /\/\.\.?(?:[/?#]|$)/;
/** Host headers the adapter takes as they are (its reValidHost). */
export const PLAIN_HOST = /^[a-z0-9._-]+(?::(?:[1-5]\d{3,4}|[6-9]\d{3}))?$/;
/** The adapter's regexes (@hono/node-server dist/index.mjs) these copies were made from, as written there. */
export const ADAPTER_SOURCES = {
  reValidRequestUrl: '/^\\/[!#$&-;=?-\\[\\]_a-z~]*$/',
  reDotSegment: '/\\/\\.\\.?(?:[/?#]|$)/',
  reValidHost: '/^[a-z0-9._-]+(?::(?:[1-5]\\d{3,4}|[6-9]\\d{3}))?$/',
};

export type NodeHandler = (req: IncomingMessage, res: ServerResponse) => boolean;

/** Returns a handler that answers a /v3 operation and returns true, or returns false to let the fetch path answer. */
export function createNodeRest(emu: Emulator, region: Region, table: RouteTable): NodeHandler {
  function serve(req: IncomingMessage, res: ServerResponse, op: Operation, params: Record<string, string>, target: string, q: number, path: string): void {
    const mark = startMark(emu);
    const h = req.headers;
    // The URL parser drops an empty query's `?` from url.search: so does this.
    const info = callInfoFrom((name) => headerValue(h, name), region, req.socket.remoteAddress ?? 'unknown', q === target.length - 1 ? path : target, mark);
    const write = (answer: Answer) => {
      const parts = answerParts(answer, info.requestId, emu.log);
      writeParts(res, parts);
      emu.journal.finish(mark, req.method!, path, parts.status, region);
    };
    // The same serving as the fetch path's route handler (rest.ts); only the request is read from node's own objects.
    const answer = serveOperation(emu, op, {
      info,
      params,
      query: () => new URLSearchParams(q < 0 ? '' : target.slice(q + 1)),
      contentLength: h['content-length'],
      transferEncoding: h['transfer-encoding'],
      readJson: (maxBytes) => readNodeJson(req, maxBytes),
    });
    // A read without a body is answered in the same turn as its request arrived.
    if (answer instanceof Promise) answer.then(write, (e: unknown) => write({ ok: false, error: e, headers: {} }));
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
