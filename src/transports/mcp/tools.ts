// MCP tools generated from the operation table (spec v3 4.6). Each tool runs the
// same pipeline as its REST route; results carry the REST JSON.
import { z } from 'zod';
import { errorEnvelope, validationError } from '../../errors';
import { refusalsByStatus } from '../../contract/refusals';
import type { Emulator } from '../../emulator';
import type { Principal } from '../../domain/auth';
import { runCall, type CallInfo } from '../../pipeline';
import type { Operation } from '../../operations/define';
import { stripNulls } from '../web/respond';
import { errorResult, type ToolResult } from '../../mcp-refusal';

export { errorResult, type ToolResult };

export interface ToolDef {
  name: string;
  title?: string;
  description: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations: Record<string, unknown>;
}

const IDEMPOTENCY_ARG = z.string().max(255).optional().describe('Idempotency key: the same key with the same arguments within 24 hours returns the first answer.');

export function toolInputSchema(op: Operation): Record<string, unknown> {
  const shape = op.idempotencyArg ? { ...op.input, idempotencyKey: IDEMPOTENCY_ARG } : op.input;
  const js = z.toJSONSchema(z.object(shape), { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete js.$schema;
  return js;
}

// A `format` (date-time, uuid) says what its generated `pattern` says; clients compile
// every tool's outputSchema after tools/list, and the patterns were a fifth of that time.
export const formatOverPattern = (ctx: { jsonSchema: Record<string, unknown> }) => {
  if (ctx.jsonSchema.format && ctx.jsonSchema.pattern) delete ctx.jsonSchema.pattern;
};

const toJs = (s: z.ZodType) => {
  const js = z.toJSONSchema(s, { io: 'output', unrepresentable: 'any', override: formatOverPattern }) as Record<string, unknown>;
  delete js.$schema;
  return js;
};

/**
 * What `structuredContent` holds (spec v3 4.6 rules 1 and 2): the REST body (a bare array
 * or a 204 wrapped in `result`), or, for a refusal, the v3 error envelope with a declared code.
 */
export function toolOutputSchema(op: Operation): Record<string, unknown> | undefined {
  if (!op.output && (op.status ?? 200) !== 204) return undefined;
  let ok: Record<string, unknown>;
  if ((op.status ?? 200) === 204) {
    ok = { type: 'object', properties: { result: { type: 'null' } }, required: ['result'], additionalProperties: false };
  } else {
    const js = toJs(op.output!);
    ok = js.type === 'object' ? js : { type: 'object', properties: { result: js }, required: ['result'], additionalProperties: false };
  }
  const codes = [...new Set([...refusalsByStatus(op).values()].flatMap((s) => [...s]))].sort();
  return { type: 'object', anyOf: [ok, toJs(errorEnvelope(codes))] };
}

const cache = new WeakMap<Operation[], { defs: ToolDef[]; byName: Map<string, Operation> }>();

export function toolTable(ops: Operation[]) {
  let t = cache.get(ops);
  if (!t) {
    const withTools = ops.filter((o) => o.tool);
    t = {
      byName: new Map(withTools.map((o) => [o.tool!, o])),
      defs: withTools.map((op) => ({
        name: op.tool!,
        title: op.summary,
        description: `${op.summary}. REST: ${op.method} ${op.path.replace(/:(\w+)/g, '{$1}')}.${op.description ? ' ' + op.description : ''}`,
        inputSchema: toolInputSchema(op),
        ...(toolOutputSchema(op) ? { outputSchema: toolOutputSchema(op) } : {}),
        annotations: { title: op.summary, ...op.annotations, openWorldHint: false },
        // Where the behaviour comes from (docs/fidelity.md), as the OpenAPI document's x-fidelity says.
        _meta: { fidelity: { ...op.fidelity } },
      })),
    };
    cache.set(ops, t);
  }
  return t;
}

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
