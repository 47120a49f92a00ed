// Answering a faulted call: after the rule's delay, either nothing more (the call
// runs as usual), the v3 error envelope with the status's headers, or a dropped
// connection. REST and legacy get the envelope as the HTTP answer; MCP gets it
// inside the JSON-RPC response with the headers, as the spec answers MCP refusals
// (spec v3 8). A faulted call never reaches a handler, so it changes no data.
import { ApiError } from '../errors';
import type { Clock } from '../clock';
import type { CallInfo } from '../pipeline';
import { budgetHeaders, type RateLimiter } from '../platform/ratelimit';
import { dropResponse, errorResponse, LEGACY_CODE } from '../transports/web/respond';
import { refuseInside } from '../mcp-refusal';
import type { FaultHit, FaultList } from './list';
import { HOUR_MS } from '../clock';

/**
 * What a fault needs of the emulator. Not the Emulator type: the emulator holds the fault list
 * (faults/list.ts), so this folder does not name it back (test/lint/imports.ts: no two folders
 * import each other).
 */
interface FaultHost {
  faults: FaultList;
  clock: Clock;
  limiter: RateLimiter;
}


const DEFAULTS: Record<number, [string, string]> = {
  429: ['RATE_LIMIT_EXCEEDED', 'The standard rate budget is spent.'],
  500: ['INTERNAL_ERROR', 'The service failed to handle this request.'],
  502: ['BAD_GATEWAY', 'The service could not be reached.'],
  503: ['SERVICE_UNAVAILABLE', 'The service is temporarily unavailable. Try again later.'],
  504: ['GATEWAY_TIMEOUT', 'The service did not answer in time.'],
};

/** Runs before routing when rules exist. undefined: no rule fired (or delay only): carry on. */
export async function injectFault(emu: FaultHost, req: Request, path: string, info: CallInfo): Promise<Response | undefined> {
  const mcp = path === '/mcp' || path === '/mcp/';
  let body: unknown;
  let tools: string[] | undefined;
  if (mcp && req.method === 'POST' && emu.faults.hasToolRules) {
    try {
      body = JSON.parse(await req.clone().text());
      tools = (Array.isArray(body) ? body : [body])
        .filter((m) => m && typeof m === 'object' && m.method === 'tools/call' && typeof m.params?.name === 'string')
        .map((m) => m.params.name as string);
    } catch {
      body = undefined; // not JSON: the MCP route answers that itself
    }
  }
  const hit = emu.faults.take({ method: req.method, path, region: info.region, tools });
  if (!hit) return undefined;
  if (info.journal) info.journal.fault = { rule: hit.rule.id, kind: hit.kind };
  if (hit.rule.delayMs) await new Promise((r) => setTimeout(r, hit.rule.delayMs));
  if (hit.kind === 'drop') {
    return dropResponse();
  }
  if (hit.kind === 'delay') return undefined;
  const err = faultError(emu, hit);
  const headers = { 'X-Request-Id': info.requestId, 'X-Emulator-Fault': hit.rule.id };
  if (path.startsWith('/api/')) {
    // The legacy API's own envelope (legacy spec: `{error: message}`) with the rule's message as it is, and the same headers.
    return errorResponse(new ApiError(err.status, LEGACY_CODE, err.message, {}, err.headers), info.requestId, headers, undefined, 'legacy');
  }
  if (!mcp) return errorResponse(err, info.requestId, headers);
  if (body === undefined) {
    try {
      body = JSON.parse(await req.text());
    } catch {
      return errorResponse(err, info.requestId, headers);
    }
  }
  // Answered as an MCP refusal over budget is: inside the response (spec v3 8).
  return refuseInside(body, err, info.requestId, { ...headers, ...err.headers });
}

function faultError(emu: FaultHost, hit: FaultHit): ApiError {
  const r = hit.rule;
  const status = r.status!;
  const [code, message] = DEFAULTS[status] ?? ['INJECTED_FAULT', `Injected fault ${r.id}.`];
  const headers: Record<string, string> = {};
  const extras: Record<string, unknown> = {};
  if (status === 429) {
    const now = emu.clock.now();
    const end = Math.floor(now / HOUR_MS) * HOUR_MS + HOUR_MS;
    const bucket = r.bucket ?? 'standard';
    const retryAfter = r.retryAfter ?? Math.max(1, Math.ceil((end - now) / 1000));
    Object.assign(headers, budgetHeaders({ bucket, limit: emu.limiter.limits[bucket], remaining: 0, reset: end / 1000 }), { 'Retry-After': String(retryAfter) });
    extras.retryAfterSeconds = retryAfter;
  } else if (r.retryAfter !== undefined) {
    headers['Retry-After'] = String(r.retryAfter);
  }
  return new ApiError(status, r.code ?? code, r.message ?? (status === 429 ? `The ${r.bucket ?? 'standard'} rate budget is spent.` : message), extras, headers);
}
