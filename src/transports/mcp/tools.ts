// MCP tools generated from the operation table (spec v3 4.6). Each tool runs the
// same pipeline as its REST route; results carry the REST JSON.
import { validationError } from '../../errors';
import type { Emulator } from '../../emulator';
import type { Principal } from '../../domain/auth';
import { runCall, V3_RULES, type CallInfo, type Rules } from '../../pipeline';
import type { Operation } from '../../operations/define';
import { stripNulls } from '../web/respond';
import { errorResult, type ToolResult } from '../../mcp-refusal';
import { takesIdempotencyKey } from '../../contract/tool';

export { errorResult, type ToolResult };

/** Success statuses and headers beyond 200 reach MCP clients in `_meta` (docs/architecture.md). */
function metaOf(status: number, headers: Record<string, string>, replay: boolean): Record<string, unknown> | undefined {
  const location = headers.Location;
  const retry = headers['Retry-After'];
  if (!replay && (status === 200 || status === 204) && !location && !retry) return undefined;
  const meta: Record<string, unknown> = {};
  if (replay) meta.idempotentReplay = true;
  if (status !== 200 && status !== 204) meta.status = status;
  if (location) meta.location = location;
  if (retry) meta.retryAfterSeconds = Number(retry);
  return meta;
}

export function successResult(body: unknown, replay: boolean, status = 200, headers: Record<string, string> = {}): ToolResult {
  // 204 gives {result: null}; a bare array gives {result: [...]} (spec v3 4.6 rule 1).
  const structured =
    body === undefined ? { result: null } : Array.isArray(body) || typeof body !== 'object' || body === null ? { result: body } : body;
  // The replacer that drops null properties makes JSON.stringify several times dearer (most of
  // all while a fresh `wfe mcp` is still interpreted), so it runs only when the plain text holds
  // a null property (each is written `:null`), as the REST writer does (web/respond.ts).
  let text = JSON.stringify(structured);
  if (text.includes(':null')) text = JSON.stringify(structured, keepResultNull);
  // Parsed back, not the handler's own object: the SDK serialises the result a few microtasks
  // later, when another call may have run.
  const result: ToolResult = { content: [{ type: 'text', text }], structuredContent: JSON.parse(text) };
  const meta = metaOf(status, headers, replay);
  if (meta) result._meta = meta;
  return result;
}

const keepResultNull = (k: string, v: unknown) => (k === 'result' && v === null ? v : stripNulls(k, v));

/**
 * Runs one tools/call through the request path. `settled`: the principal when key, region
 * and budget were settled for the whole HTTP request (MCP over HTTP); stdio settles per call.
 * `info` is not changed: MCP over HTTP shares it between the calls of a batch.
 */
export async function callTool(
  emu: Emulator,
  op: Operation,
  args: Record<string, unknown> | undefined,
  info: CallInfo,
  settled?: Principal,
  as: 'tool' | 'resource' = 'tool',
  rules: Rules = V3_RULES,
): Promise<ToolResult> {
  // A tool's idempotency key is its argument, never the HTTP request's header.
  const keyArg = takesIdempotencyKey(op) ? args?.idempotencyKey : undefined;
  const callInfo: CallInfo = info.idempotencyKey == null && keyArg === undefined ? info : { ...info, idempotencyKey: null };
  const answer = await runCall(
    emu,
    {
      op,
      info: callInfo,
      settled,
      budget: as === 'resource' ? 'cheap' : undefined,
      tool: as === 'tool' ? op.tool : undefined,
      readInput: () => {
        // The arguments are the parsed message's own: only the idempotency key is taken out of a copy.
        if (keyArg === undefined) return args ?? {};
        if (typeof keyArg !== 'string') throw validationError('idempotencyKey must be a string of 1 to 255 characters.', 'idempotencyKey');
        callInfo.idempotencyKey = keyArg;
        callInfo.idempotencyField = 'idempotencyKey';
        const raw = { ...args };
        delete raw.idempotencyKey;
        return raw;
      },
    },
    rules,
  );
  if (answer.ok) return successResult(answer.body, answer.replay === true, answer.status, answer.headers);
  return errorResult(answer.error, info.requestId, emu.log);
}
