// A control route declared as data, like an operation: method, path, what it takes and
// what it answers, and the handler. One declaration serves the route table (matching,
// 405), the control API's OpenAPI document (/_emulator/openapi.json) and, when the
// contract self-check is on, the check of every JSON answer against its schema.
import { z } from 'zod';
import { ApiError, validationError } from '../errors';
import type { Emulator } from '../emulator';
import { zodToApiError } from '../pipeline';
import { readJson } from '../transports/web/body';
import { json } from '../transports/web/respond';
import type { RouteSpec } from '../transports/http/route-table';
import { lazy } from '../lazy';

export interface ControlInput<B> {
  /** The JSON body, validated by `body` (undefined when the route takes none). */
  body: B;
  url: URL;
  req: Request;
  /** Named path parameters, raw (percent-encoded as sent). */
  params: Record<string, string>;
  /** The request id, for answers the handler writes itself. */
  requestId: string;
}

export interface ControlRoute<B = unknown> {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  summary: string;
  description?: string;
  /**
   * A JSON object body; unknown properties are refused. Read whatever the Content-Type says (curl -d).
   * A function, like `output`, so that a start builds no control route's schema (src/lazy.ts).
   */
  body?: () => z.ZodType<B>;
  /** The handler reads and checks the body itself, in its area's own words; `body` is then for the document only. */
  ownBody?: true;
  /** A pattern of its own, where the itty grammar cannot say it (an id that may hold slashes). */
  regex?: RegExp;
  /** A wrong method on the path is 404, not 405 (the areas that always answered so). */
  wrongMethod?: 'not-found';
  /** Query parameters, for the document; the handler reads them from `url`. */
  query?: Record<string, { description: string; schema: Record<string, unknown> }>;
  /** The JSON answer (status 200); absent with `noContent` or `binary`. */
  output?: () => z.ZodType;
  /** 204, no body: the handler returns nothing. */
  noContent?: boolean;
  /** The success status when not 200: a body the handler returns is answered with it. */
  status?: number;
  /** A non-JSON answer or request body, for the document (the handler writes or reads it itself). */
  binary?: { answer?: string; request?: string };
  /** Refusal statuses with their codes, for the document. */
  refusals?: Record<number, string[]>;
  /** The answer's body (or nothing, with `noContent`); a Response for an answer of its own (headers such as Location). */
  handler(emu: Emulator, input: ControlInput<B>): unknown | Response | Promise<unknown | Response>;
}

/** The control routes declared in a list of route specs (every area's), for the document. */
export const declaredControlRoutes = (specs: RouteSpec[]): ControlRoute[] => specs.flatMap((s) => (s.family === 'control' && s.declared ? [s.declared as ControlRoute] : []));

export const defineControlRoute = <B>(r: ControlRoute<B>): ControlRoute<B> => r;

async function readBody<B>(req: Request, emu: Emulator, schema: z.ZodType<B>): Promise<B> {
  const raw = await readJson(req, emu.maxBodyBytes, true);
  if (raw === undefined || raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw validationError('Invalid request body: it must be a JSON object.');
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    if (issue.code === 'unrecognized_keys') {
      throw validationError(`Unknown property ${issue.keys.join(', ')}.`, issue.keys[0]);
    }
    throw zodToApiError(parsed.error);
  }
  return parsed.data;
}

/** The route table's entry for a declared control route. */
export function controlRouteSpec(r: ControlRoute): RouteSpec {
  const bodySchema = r.body && lazy(r.body);
  const output = r.output && lazy(r.output);
  return {
    method: r.method,
    path: r.path,
    family: 'control',
    ...(r.regex ? { regex: r.regex } : {}),
    ...(r.wrongMethod ? { wrongMethod: r.wrongMethod } : {}),
    declared: r,
    handler: async (req, { emu, info, params }) => {
      const url = new URL(req.url);
      const body = bodySchema && !r.ownBody ? await readBody(req, emu, bodySchema()) : undefined;
      const out = await r.handler(emu, { body, url, req, params, requestId: info.requestId });
      let res: Response;
      if (out instanceof Response) res = out;
      else {
        // The contract self-check (test servers): a JSON answer its schema does not describe is a bug.
        if (emu.contract && output && !output().safeParse(out).success) {
          throw new ApiError(500, 'CONTRACT_VIOLATION', `${r.method} ${r.path} answered a body its declared output does not describe.`);
        }
        res = json(r.noContent ? 204 : (r.status ?? 200), r.noContent ? undefined : out, {});
      }
      // Every control answer names its request, whatever its handler wrote.
      res.headers.set('X-Request-Id', info.requestId);
      return res;
    },
  };
}
