// JSON answers in the v3 envelope. Valueless properties are omitted, never null
// (spec v3 2.2): the replacer drops nulls that a handler let through.
import { ApiError, errorBody, toApiError } from '../../errors';
import { randomFillSync } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import { RawBody } from '../../operations/raw-body';
import { answerText } from '../../pipeline/answer-memo';
import type { Answer } from '../../pipeline/types';

export const JSON_TYPE = 'application/json; charset=utf-8';
const REQUEST_ID = /^[A-Za-z0-9\-_.:+/=]{1,128}$/;

// Random bytes drawn 4 KiB at a time, 16 per id: measured 0.17-0.33 us an id, against 0.8-1.0 us
// for randomUUID() less its dashes (which had saved ~3% of CPU over randomBytes per request).
const pool = Buffer.alloc(4096);
let drawn = pool.length;

/** A client's X-Request-Id is used when valid; otherwise req_ + 32 hex (spec v3 4.1 rule 9). */
export function requestIdFrom(header: string | null | undefined): string {
  if (header != null && REQUEST_ID.test(header)) return header;
  if (drawn === pool.length) {
    randomFillSync(pool);
    drawn = 0;
  }
  drawn += 16;
  return `req_${pool.toString('hex', drawn - 16, drawn)}`;
}

export const stripNulls = (_k: string, v: unknown) => (v === null ? undefined : v);

/** One answer before it is written: the fetch path makes a Response of it, the node path and the socket write it themselves. */
export interface Parts {
  status: number;
  headers: Record<string, string>;
  /** null: no body (204); bytes: a non-JSON body (RawBody). */
  body: string | Uint8Array | null;
}

/**
 * Whose shape an answer takes: the v3 envelope and bodies without nulls (REST, the console's
 * family, control routes, downloads); the legacy API's `{ error }` and its bodies as its routes
 * give them (legacy spec 7); JSON-RPC on /mcp. The shape is chosen here, at the boundary: every
 * refusal is one ApiError whatever family refused it.
 */
export type Family = 'v3' | 'legacy' | 'mcp';

/** The code legacyError gives (src/legacy/define.ts): a refusal the legacy routes word themselves, written as they give it. */
export const LEGACY_CODE = 'LEGACY';

/**
 * The one function that turns an answer into bytes, for every family. v3 bodies lose their
 * null properties (spec v3 2.2); the other families' are written as given (JSON-RPC's `id: null`).
 */
export function jsonParts(status: number, body: unknown, headers: Record<string, string>, family: Family = 'v3'): Parts {
  if (status === 204 || body === undefined) return { status, headers, body: null };
  // [datasets, issue 13] a non-JSON body (CSV export) is written as its bytes with its own type.
  if (body instanceof RawBody) return { status, headers: { 'Content-Type': body.contentType, ...headers }, body: new Uint8Array(body.bytes) };
  if (family === 'legacy') {
    // A legacy route's own text or bytes (its CSV export) go as they are, with the type it gives.
    if (typeof body === 'string') return { status, headers, body };
    if (body instanceof Uint8Array) return { status, headers, body: new Uint8Array(body) };
  }
  return { status, headers: { 'Content-Type': JSON_TYPE, ...headers }, body: family === 'v3' ? jsonText(body) : JSON.stringify(body) };
}

/**
 * JSON without null properties. A replacer makes JSON.stringify about twice as dear, so it runs
 * only when the plain text holds a null property (every one is written `:null`); most answers hold none.
 */
function jsonText(body: unknown): string {
  return answerText(body, () => {
    const plain = body === null ? undefined : JSON.stringify(body);
    return plain === undefined || plain.includes(':null') ? JSON.stringify(body, stripNulls) : plain;
  });
}

/** A JSON-RPC error with the v3 refusal in `data` (spec v3 4.6): what an MCP client understands. */
export function rpcRefusal(e: ApiError, requestId: string, id: unknown = null, code = -32000, message = `${e.code}: ${e.message}`): unknown {
  return { jsonrpc: '2.0', id, error: { code, message, data: errorBody(e, requestId) } };
}

/** A refusal's body in its family's shape. */
function refusalBody(e: ApiError, requestId: string, family: Family): unknown {
  if (family === 'mcp') return rpcRefusal(e, requestId);
  if (family === 'legacy') {
    // The legacy API tells no bad key from another (legacy spec 5); its own refusals keep their extras.
    if (e.code === LEGACY_CODE) return { error: e.message, ...e.extras };
    // A storage refusal carries its code beside the legacy message (docs/reliability.md 10).
    if (e.status === 503 && e.code.startsWith('STORAGE_')) return { error: e.message, code: e.code };
    return { error: e.status === 401 ? 'The API key is missing or invalid.' : e.message };
  }
  return errorBody(e, requestId);
}

/** A refusal (or a bug: 500, logged) as parts, in the shape of its family. */
export function errorParts(err: unknown, requestId: string, headers: Record<string, string>, log?: (l: string) => void, family: Family = 'v3'): Parts {
  const e = toApiError(err);
  if (!(err instanceof ApiError) && e.status === 500 && log) log(`[${requestId}] internal error: ${err instanceof Error ? err.stack : String(err)}`);
  return jsonParts(e.status, refusalBody(e, requestId, family), { ...headers, ...e.headers, 'X-Request-Id': requestId }, family);
}

/**
 * The pipeline's answer as parts: the body, or the refusal. A body that cannot be written
 * (a bug) is answered 500, never a crash.
 */
export function answerParts(answer: Answer, requestId: string, log?: (l: string) => void, family: Family = 'v3'): Parts {
  try {
    return answer.ok ? jsonParts(answer.status, answer.body, answer.headers, family) : errorParts(answer.error, requestId, answer.headers, log, family);
  } catch (e) {
    return errorParts(e, requestId, {}, log, family);
  }
}

/** Responses that stand for "close the connection": the HTTP adapter destroys the socket, the in-process fetch rejects. */
const dropped = new WeakSet<Response>();
export const isDropped = (res: Response): boolean => dropped.has(res);
export function dropResponse(): Response {
  const res = new Response(null, { status: 599 });
  dropped.add(res);
  return res;
}

export const toResponse = (p: Parts): Response => new Response(p.body as BodyInit | null, { status: p.status, headers: p.headers });

export function json(status: number, body: unknown, headers: Record<string, string>): Response {
  return toResponse(jsonParts(status, body, headers));
}

export function errorResponse(err: unknown, requestId: string, headers: Record<string, string>, log?: (l: string) => void, family: Family = 'v3'): Response {
  return toResponse(errorParts(err, requestId, headers, log, family));
}

/** Parts as a whole HTTP/1.1 answer on a raw socket (a request node:http could not parse), closing the connection. */
export function httpText(p: Parts): string {
  const body = p.body === null ? '' : typeof p.body === 'string' ? p.body : Buffer.from(p.body).toString();
  let head = `HTTP/1.1 ${p.status} ${STATUS_CODES[p.status] ?? ''}\r\n`;
  for (const [k, v] of Object.entries(p.headers)) head += `${k}: ${v}\r\n`;
  return `${head}Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
}
