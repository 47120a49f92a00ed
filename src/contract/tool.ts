// An operation as an MCP tool (spec v3 4.6): its tools/list entry, generated from the
// declaration. Built once per operation, on the first tools/list or tools/call that
// needs it (src/contract/compile.ts), since the JSON schemas are the costly part.
//
// The entry is compact (docs/mcp.md, "Compact tool declarations"): agents put every tool
// declaration into a model's context, and the SDK client compiles every outputSchema on
// each listTools. What it advertises is never stricter than what the server enforces (zod,
// on every call), nor than the body the contract self-check holds a success to.
import { z } from 'zod';
import { isWrite, type Operation } from '../operations/define';
import { SHARED_REFUSALS } from './refusals';

export interface ToolDef {
  name: string;
  title?: string;
  description: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations: Record<string, unknown>;
  _meta?: Record<string, unknown>;
}

type Js = Record<string, unknown>;

const IDEMPOTENCY_ARG = z.string().min(1).max(255).optional().describe('Makes a retry safe: the same key and arguments within 24 hours answer the first result again (_meta.idempotentReplay).');

/**
 * Whether the tool takes `idempotencyKey` (spec v3 4.6 rule 4): every write whose REST route
 * accepts `Idempotency-Key` (4.1 rule 12: every write), unless the operation says otherwise
 * (update_my_work_view: 4.6 lists its arguments "except idempotencyKey"). A tool that only reads
 * (a checking POST) has nothing to make safe to retry.
 */
export const takesIdempotencyKey = (op: Operation): boolean => op.idempotencyArg ?? (isWrite(op) && op.annotations.readOnlyHint !== true);

/** Where the whole template document's JSON Schema is, named by every `document` argument. */
export const DOCUMENT_SCHEMA_POINTER = 'Its JSON Schema: the get_template_schema tool, or the resource wfe://schemas/template-document.json (guide: get_authoring_guide).';

/**
 * A whole-document argument (src/operations/templates.ts `documentArg`): a schema that accepts
 * anything and renders itself, through zod's own hook, as the template document's whole JSON
 * Schema (29 KB). The validator reports on the document (422 TEMPLATE_INVALID), so the tool
 * advertises an object and names where that schema is.
 */
const isWholeDocument = (s: unknown): boolean => Object.prototype.hasOwnProperty.call((s as { _zod?: object })?._zod ?? {}, 'toJSONSchema');

export function toolInputSchema(op: Operation): Record<string, unknown> {
  const shape: Record<string, z.ZodType> = {};
  const documents: string[] = [];
  for (const [name, s] of Object.entries(op.input as Record<string, z.ZodType>)) {
    if (isWholeDocument(s)) {
      documents.push(name);
      shape[name] = z.unknown();
    } else shape[name] = s;
  }
  if (takesIdempotencyKey(op)) shape.idempotencyKey = IDEMPOTENCY_ARG;
  const js = z.toJSONSchema(z.object(shape), { io: 'input', unrepresentable: 'any', override: formatOverPattern }) as Js;
  delete js.$schema;
  const props = js.properties as Record<string, Js>;
  for (const name of documents) {
    const said = z.globalRegistry.get((op.input as Record<string, z.ZodType>)[name])?.description;
    props[name] = { type: 'object', description: `${said ? said + '. ' : ''}${DOCUMENT_SCHEMA_POINTER}` };
  }
  return js;
}

// A `format` (date-time, uuid) says what its generated `pattern` says; clients compile
// every tool's outputSchema after tools/list, and the patterns were a fifth of that time.
// The bounds zod writes for any safe integer say nothing a client needs.
export const formatOverPattern = (ctx: { jsonSchema: Record<string, unknown> }) => {
  const js = ctx.jsonSchema;
  if (js.format && js.pattern) delete js.pattern;
  if (js.maximum === Number.MAX_SAFE_INTEGER) delete js.maximum;
  if (js.minimum === Number.MIN_SAFE_INTEGER) delete js.minimum;
};

const toJs = (s: z.ZodType) => {
  const js = z.toJSONSchema(s, { io: 'output', unrepresentable: 'any', override: formatOverPattern }) as Js;
  delete js.$schema;
  return js;
};

/**
 * Levels of a success body an outputSchema spells out: the body's own properties, with their
 * types, enums and which are required; below them an object or an array's items are named only.
 * The shapes' descriptions are left out: the tool's description says what it returns.
 */
const OUTPUT_DEPTH = 1;

/**
 * A JSON Schema with every constraint that only narrows dropped (additionalProperties, bounds,
 * patterns, formats, descriptions) and everything below OUTPUT_DEPTH left open. Only ever
 * looser than `js`: whatever `js` accepts, the result accepts, so a body the contract
 * self-check let through validates in every client. `$ref`s into the root's `$defs` are
 * inlined (depth-bounded, so a recursive shape ends), so the result holds no reference.
 */
export function compactSchema(js: Js, root: Js = js, depth = 0): Js {
  const ref = typeof js.$ref === 'string' ? js.$ref : undefined;
  if (ref) {
    const m = /^#\/(\$defs|definitions)\/(.+)$/.exec(ref);
    const target = m ? ((root[m[1]] as Record<string, Js> | undefined)?.[decodeURIComponent(m[2])] ?? {}) : {};
    return compactSchema(target, root, depth);
  }
  if (js.allOf || js.not) return {};
  const out: Js = {};
  const branches = (js.anyOf ?? js.oneOf) as Js[] | undefined;
  if (branches) {
    const mapped = branches.map((b) => compactSchema(b, root, depth));
    // A branch that accepts anything accepts the whole union.
    if (mapped.some((b) => Object.keys(b).length === 0)) return {};
    out.anyOf = mapped;
  }
  const type = js.type;
  if (type !== undefined) out.type = type;
  if (depth > OUTPUT_DEPTH) return out;
  if (js.enum) out.enum = js.enum;
  if (js.const !== undefined) out.const = js.const;
  if (type === 'object' && depth < OUTPUT_DEPTH && js.properties) {
    const props: Record<string, Js> = {};
    for (const [name, p] of Object.entries(js.properties as Record<string, Js>)) props[name] = compactSchema(p, root, depth + 1);
    out.properties = props;
    if (Array.isArray(js.required) && js.required.length) out.required = js.required;
  }
  if (type === 'array' && js.items && typeof js.items === 'object' && !Array.isArray(js.items)) {
    const items = compactSchema(js.items as Js, root, depth + 1);
    if (Object.keys(items).length) out.items = items;
  }
  return out;
}

/**
 * A refusal's structuredContent, whatever the tool (spec v3 4.6 rule 2): the v3 error envelope.
 * Its codes are in the description (`refusalText`), not in an enum per tool.
 */
const ERROR_BRANCH: Js = { properties: { error: { required: ['code', 'message', 'requestId'] } }, required: ['error'] };

/**
 * What `structuredContent` holds (spec v3 4.6 rules 1 and 2): the REST body (a bare array
 * or a 204 wrapped in `result`), compact, or, for a refusal, the v3 error envelope.
 */
export function toolOutputSchema(op: Operation): Record<string, unknown> | undefined {
  if (!op.output && (op.status ?? 200) !== 204) return undefined;
  let ok: Js;
  if ((op.status ?? 200) === 204) {
    ok = { type: 'object', properties: { result: { type: 'null' } }, required: ['result'] };
  } else {
    const js = toJs(op.output!);
    ok = js.type === 'object' ? compactSchema(js) : { type: 'object', properties: { result: compactSchema(js, js, 1) }, required: ['result'] };
  }
  return { type: 'object', anyOf: [ok, ERROR_BRANCH] };
}

/** The tool's own refusals, by status, for its description; those every call can give are in the server's instructions. */
export function refusalText(refusals: Map<number, Set<string>>): string {
  const parts: string[] = [];
  for (const status of [...refusals.keys()].sort((a, b) => a - b)) {
    const codes = [...refusals.get(status)!].filter((c) => !SHARED_REFUSALS.has(`${status} ${c}`)).sort();
    if (codes.length) parts.push(`${status} ${codes.join(', ')}`);
  }
  return parts.length ? ` Refusals: ${parts.join('; ')}; and the shared ones.` : ' Refusals: the shared ones.';
}

export function toolDefFor(op: Operation & { tool: string }, refusals: Map<number, Set<string>>): ToolDef {
  const outputSchema = toolOutputSchema(op);
  return {
    name: op.tool,
    title: op.summary,
    description: `${op.summary}. REST: ${op.method} ${op.path.replace(/:(\w+)/g, '{$1}')}.${op.description ? ' ' + op.description : ''}${refusalText(refusals)}`,
    inputSchema: toolInputSchema(op),
    ...(outputSchema ? { outputSchema } : {}),
    // The hints only: the tool's own `title` is the title (annotations.title would repeat it).
    annotations: { ...op.annotations, openWorldHint: false },
    // Where the behaviour comes from (docs/fidelity.md), as the OpenAPI document's x-fidelity says.
    _meta: { fidelity: { ...op.fidelity } },
  };
}
