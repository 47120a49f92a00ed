// v3 REST: a request's input read by the operation's partition, and the answer written.
import { ApiError, validationError } from '../../errors';
import { runCall, V3_RULES, type Answer, type CallInfo, type Rules } from '../../pipeline';
import type { Emulator } from '../../emulator';
import { compiled, partitionOf } from '../../contract/compile';
import { BAD_BODY, NO_BODY, type Operation } from '../../operations/define';
import { declaresBody, readJson } from '../web/body';
import { answerParts, toResponse } from '../web/respond';
import type { RouteHandler } from './route-table';

/** `query`: the request's query parameters (only read when the operation declares some). */
export function buildInput(op: Operation, query: () => URLSearchParams, params: Record<string, string>, body: unknown): Record<string, unknown> {
  const c = compiled(op);
  const part = c.partition;
  const raw: Record<string, unknown> = {};
  if (part.bodyAs) {
    raw[part.bodyAs] = body;
  } else if (body === undefined) {
    if (part.hasBody) (raw as Record<symbol, unknown>)[NO_BODY] = true;
  } else {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw validationError('Invalid request body: it must be a JSON object.');
    }
    // Path and query names in the body are ignored; undeclared names pass to zod, which drops them.
    for (const [k, v] of Object.entries(body)) if (!part.path.includes(k) && !part.query.includes(k)) raw[k] = v;
  }
  const search = part.query.length > 0 ? query() : undefined;
  for (const name of part.query) {
    const all = search!.getAll(name);
    if (all.length > 1) throw validationError(`${name} was given more than once.`, name);
    if (all.length === 1) raw[name] = c.coerce(name, all[0]);
  }
  for (const name of part.path) {
    let v: string;
    try {
      v = decodeURIComponent(params[name] ?? '');
    } catch {
      throw validationError(`${name} is not a valid path segment.`, name);
    }
    raw[name] = c.coerce(name, v);
  }
  return raw;
}

/**
 * The raw input from a body reader; a body that is not a JSON object (400) is kept on the raw
 * input (BAD_BODY, src/operations/define.ts) and refused after the permission checks.
 */
export async function inputOrBadBody(op: Operation, read: () => Promise<Record<string, unknown>>, withoutBody: () => Record<string, unknown>): Promise<Record<string, unknown>> {
  try {
    return await read();
  } catch (e) {
    if (!(e instanceof ApiError) || e.status !== 400 || e.code !== 'VALIDATION_ERROR') throw e;
    const raw = withoutBody() as Record<symbol, unknown>;
    delete raw[NO_BODY];
    raw[BAD_BODY] = e;
    return raw as Record<string, unknown>;
  }
}

/** What a v3 operation's serving needs of a request, read the same way by the node and fetch entries. */
export interface RestRequest {
  info: CallInfo;
  params: Record<string, string>;
  /** The query parameters (built only when the operation declares some). */
  query: () => URLSearchParams;
  contentLength: string | null | undefined;
  transferEncoding: string | null | undefined;
  /** The body as JSON, within the size limit (refuses one that is not JSON, 4.1 rule 3). */
  readJson: (maxBytes: number) => Promise<unknown>;
}

/**
 * The one function that serves a v3 operation, for both entries (the node fast path in
 * fast-path.ts and the fetch path's route handler below). Synchronous when no body is to be
 * read: a read is answered in the same turn as its request arrived.
 */
export function serveOperation(emu: Emulator, op: Operation, r: RestRequest, rules: Rules = V3_RULES): Answer | Promise<Answer> {
  // The partition is read per call, not when the route is made: it builds the input shape.
  const { params, query } = r;
  const withoutBody = () => buildInput(op, query, params, undefined);
  return runCall(emu, {
    op,
    info: r.info,
    // A body that is not a JSON object is kept aside (inputOrBadBody) and refused after the permission checks.
    readInput: partitionOf(op).hasBody
      ? (maxBytes) => inputOrBadBody(op, async () => buildInput(op, query, params, await r.readJson(maxBytes)), withoutBody)
      : // A route without a body still refuses one that is not JSON (4.1 rule 3); what it holds is ignored.
        op.method !== 'GET' && declaresBody(r.contentLength, r.transferEncoding)
        ? (maxBytes) => inputOrBadBody(op, async () => (await r.readJson(maxBytes), withoutBody()), withoutBody)
        : withoutBody,
  }, rules);
}

/**
 * A v3 operation's route handler on the fetch path (the node fast path calls serveOperation
 * too); `rules` other than v3's serve the console's own family (src/console/api.ts).
 */
export function restHandler(op: Operation, rules: Rules = V3_RULES): RouteHandler {
  return async (req, { emu, info, params }) => {
    const answer = await serveOperation(emu, op, {
      info,
      params,
      query: () => new URL(req.url).searchParams,
      contentLength: req.headers.get('content-length'),
      transferEncoding: req.headers.get('transfer-encoding'),
      readJson: (maxBytes) => readJson(req, maxBytes),
    }, rules);
    return toResponse(answerParts(answer, info.requestId, emu.log));
  };
}
