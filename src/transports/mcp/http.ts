// MCP over Streamable HTTP at /mcp (spec v3 4.6): stateless, JSON responses.
// Authentication, region, body and the rate budget are settled once per HTTP request by the
// pipeline (settleRequest), with the same headers as REST; tool calls then run the shared pipeline.
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { ApiError, validationError } from '../../errors';
import type { Emulator } from '../../emulator';
import { settleRequest, V3_RULES, type CallInfo } from '../../pipeline';
import { errorResponse, JSON_TYPE, jsonParts, rpcRefusal, toResponse } from '../web/respond';
import { readBodyText } from '../web/body';
import { createMcpServer } from './server';
import { callTool } from './tools';
import { refuseInside } from '../../mcp-refusal';
import { bucketOf } from './budget';
import { keptByAll, narrowingOfRequest, type ToolNarrowing } from './narrowing';

import { BEARER_TOKENS } from '../../pipeline/bearer';

/** The token of `Authorization: Bearer <token>` (RFC 6750 2.1), or null. */
function bearerOf(header: string | null): string | null {
  const m = header === null ? null : /^Bearer\s+(\S+)\s*$/i.exec(header.trim());
  return m ? m[1] : null;
}

/**
 * The challenge of a 401 on /mcp (the MCP authorization specification; RFC 9728 5.1): where the
 * protected-resource metadata is, on the address the client used. A refused token adds
 * error="invalid_token" (RFC 6750 3.1); a refused or missing key adds nothing, the body's code
 * (MISSING_API_KEY, API_KEY_REVOKED, ...) says the rest.
 */
function challenge(req: Request, info: CallInfo, e: ApiError): string {
  const metadata = `${new URL(req.url).origin}/.well-known/oauth-protected-resource`;
  const tokenRefused = info.bearer && !info.apiKey?.trim();
  return `Bearer resource_metadata="${metadata}"` + (tokenRefused ? `, error="invalid_token", error_description="${e.code}"` : '');
}

export async function handleMcpHttp(emu: Emulator, req: Request, info: CallInfo): Promise<Response> {
  const headers: Record<string, string> = { 'X-Request-Id': info.requestId };
  // Stateless, JSON responses: no SSE stream to GET and no session to DELETE.
  // Answered like any wrong method on a v3 route (docs/decisions.md), before the key.
  if (req.method !== 'POST') {
    return errorResponse(
      new ApiError(405, 'METHOD_NOT_ALLOWED', `${req.method} is not allowed on /mcp. Allowed: POST (MCP Streamable HTTP, JSON responses, no sessions).`, {}, { Allow: 'POST' }),
      info.requestId,
      headers,
    );
  }
  // OAuth (docs/oauth.md): an access token in Authorization: Bearer stands for the key, when
  // the emulator signs clients in (not under --no-oauth) and no X-API-KEY is sent.
  const oauth = emu.slot(BEARER_TOKENS) !== undefined;
  if (oauth) info = { ...info, bearer: bearerOf(req.headers.get('authorization')) };
  // A body that is not JSON and an empty batch are JSON-RPC errors (what MCP clients understand);
  // the parse error carries the v3 refusal REST would give in `data` (spec v3 4.1 rule 3; docs/decisions.md).
  const notJson = validationError('Invalid request body: it is not valid JSON.');
  const emptyBatch = new ApiError(400, 'VALIDATION_ERROR', 'Invalid Request: an empty batch.');
  let narrowing: ToolNarrowing[] = [];
  const tools = emu.table;
  // Key, region, body and budget once per HTTP request, by the pipeline's steps and V3 rules (src/pipeline/run.ts).
  const settled = await settleRequest(emu, info, V3_RULES, headers, {
    read: (maxBytes) => readBodyText(req, maxBytes),
    parse: (text) => {
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        throw notJson;
      }
      // JSON-RPC 2.0 (Batch): an empty array is an invalid request, answered with one error.
      if (Array.isArray(body) && body.length === 0) throw emptyBatch;
      // Narrowing by query or header (docs/mcp.md); a name it does not know is refused like a bad parameter.
      narrowing = narrowingOfRequest(req.url, req.headers, tools.toolsByName);
      return body;
    },
    // A tool the narrowing leaves out is charged as an unknown tool is (it answers as one).
    bucket: (body) =>
      bucketOf(body, (n) => {
        const op = tools.toolsByName.get(n);
        return op && keptByAll(narrowing, op) ? op : undefined;
      }),
  });
  if (!settled.ok) {
    const e = settled.error;
    if (e === notJson) return toResponse(jsonParts(400, rpcRefusal(notJson, info.requestId, null, -32700, 'Parse error: invalid request body: it is not valid JSON.'), headers, 'mcp'));
    if (e === emptyBatch) return toResponse(jsonParts(400, { jsonrpc: '2.0', id: null, error: { code: -32600, message: emptyBatch.message } }, headers, 'mcp'));
    // Over budget with the messages known: the refusal goes inside the MCP response (spec v3 8).
    if (settled.stage === 'budget' && settled.body !== undefined && e instanceof ApiError) return refuseInside(settled.body, e, info.requestId, { ...headers, ...e.headers });
    if (oauth && e instanceof ApiError && e.status === 401) headers['WWW-Authenticate'] = challenge(req, info, e);
    return errorResponse(e, info.requestId, headers, emu.log);
  }
  const { principal, body } = settled;
  const server = createMcpServer(emu, (op, args, as) => callTool(emu, op, args, info, principal, as), () => info.requestId, narrowing);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  try {
    await server.connect(transport);
    const res = await transport.handleRequest(req, { parsedBody: body });
    const merged = new Headers(res.headers);
    for (const [k, v] of Object.entries(headers)) merged.set(k, v);
    if (/^application\/json\s*$/i.test(merged.get('content-type') ?? '')) merged.set('Content-Type', JSON_TYPE);
    // The answer is read whole before the server closes below: closing the transport while the
    // adapter still streams its body could reset the kept-alive socket after the answer was sent,
    // and the client's next request on that socket failed (seen under load as ECONNRESET).
    const text = res.body ? await res.text() : null;
    return new Response(text, { status: res.status, headers: merged });
  } finally {
    void server.close().catch(() => {});
  }
}
