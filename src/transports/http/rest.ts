// v3 REST routes generated from the operation table.
import { Router, type IRequest } from 'itty-router';
import { validationError } from '../../errors';
import type { Emulator } from '../../emulator';
import { runCall, type Answer, type CallInfo } from '../../pipeline';
import { partitionOf } from '../../contract/partition';
import type { Operation } from '../../operations/define';
import { declaresBody, readJson } from './body';
import { coerceString } from './coerce';
import { errorResponse, json } from './respond';

export interface HttpCall {
  info: CallInfo;
  emu: Emulator;
}

/** `query`: the request's query parameters (only read when the operation declares some). */
export function buildInput(op: Operation, query: () => URLSearchParams, params: Record<string, string>, body: unknown): Record<string, unknown> {
  const part = partitionOf(op);
  const raw: Record<string, unknown> = {};
  if (part.bodyAs) {
    raw[part.bodyAs] = body;
  } else if (body !== undefined) {
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
    if (all.length === 1) raw[name] = coerceString(op.input, name, all[0]);
  }
  for (const name of part.path) {
    let v: string;
    try {
      v = decodeURIComponent(params[name] ?? '');
    } catch {
      throw validationError(`${name} is not a valid path segment.`, name);
    }
    raw[name] = coerceString(op.input, name, v);
  }
  return raw;
}

/** Writes the pipeline's answer as a REST response: the body, or the v3 envelope. */
export function restAnswer(answer: Answer, requestId: string, log: (l: string) => void): Response {
  if (answer.ok) return json(answer.status, answer.body, answer.headers);
  return errorResponse(answer.error, requestId, answer.headers, log);
}

export function restHandler(op: Operation) {
  const wantsBody = partitionOf(op).hasBody;
  return async (req: IRequest, call: HttpCall): Promise<Response> => {
    const { emu, info } = call;
    const answer = await runCall(emu, {
      op,
      info,
      readInput: async (maxBytes) => {
        const r = req as unknown as Request;
        // A route without a body still refuses one that is not JSON (4.1 rule 3); what it holds is ignored.
        const body = wantsBody || (op.method !== 'GET' && declaresBody(r.headers.get('content-length'), r.headers.get('transfer-encoding'))) ? await readJson(r, maxBytes) : undefined;
        return buildInput(op, () => new URL(req.url).searchParams, req.params, wantsBody ? body : undefined);
      },
    });
    return restAnswer(answer, info.requestId, emu.log);
  };
}

export function buildRestRouter(ops: Operation[]) {
  const router = Router<IRequest, [HttpCall]>();
  for (const op of ops) {
    const handler = restHandler(op);
    const add = (path: string) => {
      switch (op.method) {
        case 'GET': router.get(path, handler); break;
        case 'POST': router.post(path, handler); break;
        case 'PUT': router.put(path, handler); break;
        case 'PATCH': router.patch(path, handler); break;
        case 'DELETE': router.delete(path, handler); break;
      }
    };
    add(op.path);
  }
  return router;
}

/** For 404 vs 405: which methods does any route allow on this path? */
export function allowedMethods(ops: Operation[], pathname: string): string[] {
  const out = new Set<string>();
  for (const op of ops) if (routeRegex(op.path).test(pathname)) out.add(op.method);
  return [...out];
}

const regexes = new Map<string, RegExp>();
function routeRegex(path: string): RegExp {
  let r = regexes.get(path);
  if (!r) {
    r = new RegExp('^' + path.replace(/\/+$/, '').replace(/:(\w+)/g, '[^/]+') + '/*$');
    regexes.set(path, r);
  }
  return r;
}
