// v3 REST: a request's input read by the operation's partition, and the answer written.
import { validationError } from '../../errors';
import { runCall, V3_RULES, type Answer, type Rules } from '../../pipeline';
import { compiled, partitionOf } from '../../contract/compile';
import { BAD_BODY, NO_BODY, type Operation } from '../../operations/define';
import { ApiError } from '../../errors';
import { declaresBody, readJson } from '../web/body';
import { errorResponse, json } from '../web/respond';
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

/** Writes the pipeline's answer as a REST response: the body, or the v3 envelope. */
export function restAnswer(answer: Answer, requestId: string, log: (l: string) => void): Response {
  if (answer.ok) return json(answer.status, answer.body, answer.headers);
  return errorResponse(answer.error, requestId, answer.headers, log);
}

/**
 * A v3 operation's route handler on the fetch path (the node fast path runs the same call in
 * native.ts); `rules` other than v3's serve the console's own family (src/console/api.ts).
 */
export function restHandler(op: Operation, rules: Rules = V3_RULES): RouteHandler {
  // The partition is read per call, not here: it builds the input shape, and a start makes every route's handler.
  return async (req, { emu, info, params }) => {
    const wantsBody = partitionOf(op).hasBody;
    const answer = await runCall(emu, {
      op,
      info,
      readInput: async (maxBytes) => {
        // A route without a body still refuses one that is not JSON (4.1 rule 3); what it holds is ignored.
        const query = () => new URL(req.url).searchParams;
        return inputOrBadBody(
          op,
          async () => {
            const body = wantsBody || (op.method !== 'GET' && declaresBody(req.headers.get('content-length'), req.headers.get('transfer-encoding'))) ? await readJson(req, maxBytes) : undefined;
            return buildInput(op, query, params, wantsBody ? body : undefined);
          },
          () => buildInput(op, query, params, undefined),
        );
      },
    }, rules);
    return restAnswer(answer, info.requestId, emu.log);
  };
}
