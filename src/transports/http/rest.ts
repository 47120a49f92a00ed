// v3 REST routes generated from the operation table.
import { Router, type IRequest } from 'itty-router';
import { validationError } from '../../errors';
import type { Emulator } from '../../emulator';
import { authenticate, charge, runOperation, type CallInfo } from '../../pipeline';
import { pathParams, type Operation } from '../../operations/define';
import { readJson } from './body';
import { coerceString } from './coerce';
import { errorResponse, json } from './respond';

export interface HttpCall {
  info: CallInfo;
  emu: Emulator;
}

export function buildInput(op: Operation, url: URL, params: Record<string, string>, body: unknown): Record<string, unknown> {
  const raw: Record<string, unknown> = {};
  if (op.bodyAs) {
    raw[op.bodyAs] = body;
  } else if (body !== undefined) {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw validationError('Invalid request body: it must be a JSON object.');
    }
    const pathNames = new Set(pathParams(op.path));
    const queryNames = new Set(op.query ?? []);
    for (const [k, v] of Object.entries(body)) if (!pathNames.has(k) && !queryNames.has(k)) raw[k] = v;
  }
  for (const name of op.query ?? []) {
    const all = url.searchParams.getAll(name);
    if (all.length > 1) throw validationError(`${name} was given more than once.`, name);
    if (all.length === 1) raw[name] = coerceString(op.input, name, all[0]);
  }
  for (const name of pathParams(op.path)) {
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

const hasBody = (op: Operation) => op.method !== 'GET' && (op.bodyAs !== undefined || Object.keys(op.input).some((k) => !pathParams(op.path).includes(k) && !(op.query ?? []).includes(k)));

export function restHandler(op: Operation) {
  const wantsBody = hasBody(op);
  return async (req: IRequest, call: HttpCall): Promise<Response> => {
    const { emu, info } = call;
    let headers: Record<string, string> = { 'X-Request-Id': info.requestId };
    try {
      const principal = authenticate(emu, info);
      headers = { ...headers, ...charge(emu, principal, op.budget) };
      const url = new URL(req.url);
      const body = wantsBody ? await readJson(req as unknown as Request, emu.maxBodyBytes) : undefined;
      const raw = buildInput(op, url, req.params, body);
      const out = runOperation(emu, principal, op, raw, info);
      return json(out.status, out.body, { ...headers, ...out.headers });
    } catch (e) {
      return errorResponse(e, info.requestId, headers, emu.log);
    }
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
