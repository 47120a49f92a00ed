// How a refusal reads to an MCP client, for whoever refuses: the MCP transport (over
// budget), the fault chain (an injected fault on /mcp). Neutral ground: it knows the
// error envelope and JSON-RPC, and neither transport nor extension.
import { ApiError, errorBody, toApiError } from './errors';
import { jsonParts, rpcRefusal, toResponse } from './transports/web/respond';

export interface ToolResult {
  content: { type: 'text'; text: string }[];
  structuredContent: Record<string, unknown>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
  [k: string]: unknown;
}

/** A refusal as a tool result: the v3 error body, text = code, message ... requestId. */
export function errorResult(err: unknown, requestId: string, log?: (l: string) => void): ToolResult {
  const e = toApiError(err);
  if (!(err instanceof ApiError) && e.status === 500 && log) log(`[${requestId}] internal error in tool: ${err instanceof Error ? err.stack : String(err)}`);
  const body = errorBody(e, requestId);
  // The REST status rides in _meta like a success's non-200 status, so a client branches on one place.
  const retry = e.headers['Retry-After'];
  return {
    content: [{ type: 'text', text: `${e.code}: ${e.message} requestId: ${requestId}` }],
    structuredContent: body as unknown as Record<string, unknown>,
    isError: true,
    _meta: { status: e.status, ...(retry !== undefined ? { retryAfterSeconds: Number(retry) } : {}) },
  };
}

/** Over budget (or an injected fault): the refusal goes inside the MCP response, with the headers (spec v3 8). */
export function refuseInside(body: unknown, err: ApiError, requestId: string, headers: Record<string, string>): Response {
  const msgs = (Array.isArray(body) ? body : [body]) as { id?: unknown; method?: unknown }[];
  const answers = msgs
    .filter((m) => m && typeof m === 'object' && m.id !== undefined && typeof m.method === 'string')
    .map((m) => (m.method === 'tools/call' ? { jsonrpc: '2.0', id: m.id, result: errorResult(err, requestId) } : rpcRefusal(err, requestId, m.id)));
  if (answers.length === 0) return toResponse(jsonParts(202, undefined, headers, 'mcp'));
  return toResponse(jsonParts(200, Array.isArray(body) ? answers : answers[0], headers, 'mcp'));
}
