// MCP tools generated from the operation table (spec v3 4.6). Each tool runs the
// same pipeline as its REST route; results carry the REST JSON.
import { validationError } from '../../errors';
import type { Emulator } from '../../emulator';
import type { Principal } from '../../domain/auth';
import { runCall, type CallInfo } from '../../pipeline';
import type { Operation } from '../../operations/define';
import { stripNulls } from '../web/respond';
import { errorResult, type ToolResult } from '../../mcp-refusal';

export { errorResult, type ToolResult };

/** Success statuses and headers beyond 200 reach MCP clients in `_meta` (docs/architecture.md). */
function metaOf(status: number, headers: Record<string, string>, replay: boolean): Record<string, unknown> | undefined {
  const meta: Record<string, unknown> = {};
  if (replay) meta.idempotentReplay = true;
  if (status !== 200 && status !== 204) meta.status = status;
  if (headers.Location) meta.location = headers.Location;
  if (headers['Retry-After']) meta.retryAfterSeconds = Number(headers['Retry-After']);
  return Object.keys(meta).length ? meta : undefined;
}

export function successResult(body: unknown, replay: boolean, status = 200, headers: Record<string, string> = {}): ToolResult {
  // 204 gives {result: null}; a bare array gives {result: [...]} (spec v3 4.6 rule 1).
  const structured =
    body === undefined ? { result: null } : Array.isArray(body) || typeof body !== 'object' || body === null ? { result: body } : body;
  const text = JSON.stringify(structured, (k, v) => (k === 'result' && v === null ? v : stripNulls(k, v)));
  const result: ToolResult = { content: [{ type: 'text', text }], structuredContent: JSON.parse(text) };
  const meta = metaOf(status, headers, replay);
  if (meta) result._meta = meta;
  return result;
}

/**
 * Runs one tools/call through the request path. `settled`: the principal when key, region
 * and budget were settled for the whole HTTP request (MCP over HTTP); stdio settles per call.
 */
export async function callTool(
  emu: Emulator,
  op: Operation,
  args: Record<string, unknown> | undefined,
  info: CallInfo,
  settled?: Principal,
  as: 'tool' | 'resource' = 'tool',
): Promise<ToolResult> {
  const callInfo: CallInfo = { ...info, idempotencyKey: null };
  const answer = await runCall(emu, {
    op,
    info: callInfo,
    settled,
    budget: as === 'resource' ? 'cheap' : undefined,
    readInput: () => {
      const raw: Record<string, unknown> = { ...(args ?? {}) };
      if (op.idempotencyArg && raw.idempotencyKey !== undefined) {
        if (typeof raw.idempotencyKey !== 'string') throw validationError('idempotencyKey must be a string of 1 to 255 characters.', 'idempotencyKey');
        callInfo.idempotencyKey = raw.idempotencyKey;
        delete raw.idempotencyKey;
      }
      return raw;
    },
  });
  if (answer.ok) return successResult(answer.body, answer.replay === true, answer.status, answer.headers);
  return errorResult(answer.error, info.requestId, emu.log);
}
