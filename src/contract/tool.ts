// An operation as an MCP tool (spec v3 4.6): its tools/list entry, generated from the
// declaration. Built once per operation, on the first tools/list or tools/call that
// needs it (src/contract/compile.ts), since the JSON schemas are the costly part.
import { z } from 'zod';
import { errorEnvelope } from '../errors';
import type { Operation } from '../operations/define';
import { allRefusalDetails, refusalDetailsFor } from './refusals';

export interface ToolDef {
  name: string;
  title?: string;
  description: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations: Record<string, unknown>;
  _meta?: Record<string, unknown>;
}

const IDEMPOTENCY_ARG = z.string().min(1).max(255).optional().describe('Idempotency key: the same key with the same arguments within 24 hours returns the first answer.');

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
export function toolOutputSchema(op: Operation, refusals: Map<number, Set<string>>): Record<string, unknown> | undefined {
  if (!op.output && (op.status ?? 200) !== 204) return undefined;
  let ok: Record<string, unknown>;
  if ((op.status ?? 200) === 204) {
    ok = { type: 'object', properties: { result: { type: 'null' } }, required: ['result'], additionalProperties: false };
  } else {
    const js = toJs(op.output!);
    ok = js.type === 'object' ? js : { type: 'object', properties: { result: js }, required: ['result'], additionalProperties: false };
  }
  const codes = [...new Set([...refusals.values()].flatMap((s) => [...s]))].sort();
  return { type: 'object', anyOf: [ok, toJs(errorEnvelope(codes, allRefusalDetails(refusalDetailsFor(op))))] };
}

export function toolDefFor(op: Operation & { tool: string }, refusals: Map<number, Set<string>>): ToolDef {
  const outputSchema = toolOutputSchema(op, refusals);
  return {
    name: op.tool,
    title: op.summary,
    description: `${op.summary}. REST: ${op.method} ${op.path.replace(/:(\w+)/g, '{$1}')}.${op.description ? ' ' + op.description : ''}`,
    inputSchema: toolInputSchema(op),
    ...(outputSchema ? { outputSchema } : {}),
    annotations: { title: op.summary, ...op.annotations, openWorldHint: false },
    // Where the behaviour comes from (docs/fidelity.md), as the OpenAPI document's x-fidelity says.
    _meta: { fidelity: { ...op.fidelity } },
  };
}
