// Narrowing what an MCP client may do (EMULATOR.md "Narrowing MCP", docs/mcp.md): only the
// read-only tools, named tools, named groups of tools. `wfe mcp` takes them as flags, `/mcp`
// as query parameters or headers. A tool outside the set is neither listed nor callable:
// calling it is the JSON-RPC error of an unknown tool.
import { validationError } from '../../errors';
import type { Operation } from '../../operations/define';

/** The named groups of tools, by the operation table's tags (src/contract/tags.ts). */
export const TOOLSETS: Readonly<Record<string, readonly string[]>> = {
  tasks: ['Tasks', 'Standalone tasks'],
  checklists: ['Checklists'],
  templates: ['Templates', 'Template drafts', 'Template schema'],
  people: ['People', 'Tags', 'Workspace'],
  'my-work': ['Tasks grid'],
  'data-sets': ['Data Sets'],
  schedules: ['Schedules'],
  webhooks: ['Webhooks'],
};

/** Every tool of the table, by name (a Set or the table's Map). */
export interface ToolNames {
  has(name: string): boolean;
}

export interface ToolNarrowing {
  /** Only tools annotated readOnlyHint. */
  readOnly?: boolean;
  /** Tool names; with `toolsets`, a tool named in either is kept. */
  tools?: readonly string[];
  toolsets?: readonly string[];
}

/** Whether one narrowing keeps the tool of `op`. */
export function keeps(n: ToolNarrowing, op: Operation): boolean {
  if (n.readOnly && op.annotations.readOnlyHint !== true) return false;
  if (!n.tools && !n.toolsets) return true;
  return (n.tools?.includes(op.tool!) ?? false) || (n.toolsets?.some((s) => op.tag !== undefined && TOOLSETS[s].includes(op.tag)) ?? false);
}

/** Whether every narrowing keeps the tool (a request may narrow by query and by header: both apply). */
export const keptByAll = (ns: readonly ToolNarrowing[], op: Operation): boolean => ns.every((n) => keeps(n, op));

const list = (v: string): string[] =>
  v
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);

/**
 * A narrowing from its text forms, checked: comma-separated names, `readOnly` true or false.
 * `fields` names each form where it came from (a flag, a query parameter, a header) for the
 * refusal. Unknown names are refused (400 VALIDATION_ERROR), so a typo narrows to nothing
 * silently never. `toolNames`: every tool of the table.
 */
export function parseNarrowing(
  raw: { readOnly?: string | boolean; tools?: string; toolsets?: string },
  fields: { readOnly: string; tools: string; toolsets: string },
  toolNames: ToolNames,
): ToolNarrowing {
  const out: ToolNarrowing = {};
  if (raw.readOnly !== undefined) {
    const v = typeof raw.readOnly === 'boolean' ? raw.readOnly : raw.readOnly.trim().toLowerCase();
    if (v === true || v === 'true' || v === '1' || v === '') out.readOnly = true;
    else if (v !== false && v !== 'false' && v !== '0') throw validationError(`${fields.readOnly} must be true or false.`, fields.readOnly);
  }
  if (raw.tools !== undefined) {
    const names = list(raw.tools);
    const unknown = names.filter((n) => !toolNames.has(n));
    if (names.length === 0) throw validationError(`${fields.tools} must name at least one tool.`, fields.tools);
    if (unknown.length) throw validationError(`${fields.tools}: no tool is named ${unknown.join(', ')}. tools/list names them.`, fields.tools);
    out.tools = names;
  }
  if (raw.toolsets !== undefined) {
    const names = list(raw.toolsets);
    const unknown = names.filter((n) => !Object.hasOwn(TOOLSETS, n));
    if (names.length === 0) throw validationError(`${fields.toolsets} must name at least one toolset.`, fields.toolsets);
    if (unknown.length) throw validationError(`${fields.toolsets}: no toolset is named ${unknown.join(', ')}. Toolsets: ${Object.keys(TOOLSETS).join(', ')}.`, fields.toolsets);
    out.toolsets = names;
  }
  return out;
}

/** `/mcp`'s narrowing: query parameters `readOnly`, `tools`, `toolsets`, and headers `X-MCP-Readonly`, `X-MCP-Tools`, `X-MCP-Toolsets`. */
export function narrowingOfRequest(url: string, headers: Headers, toolNames: ToolNames): ToolNarrowing[] {
  const out: ToolNarrowing[] = [];
  const qi = url.indexOf('?');
  const q = new URLSearchParams(qi < 0 ? '' : url.slice(qi + 1));
  const fromQuery = { readOnly: q.get('readOnly') ?? undefined, tools: q.get('tools') ?? undefined, toolsets: q.get('toolsets') ?? undefined };
  if (Object.values(fromQuery).some((v) => v !== undefined)) out.push(parseNarrowing(fromQuery, { readOnly: 'readOnly', tools: 'tools', toolsets: 'toolsets' }, toolNames));
  const fromHeaders = { readOnly: headers.get('x-mcp-readonly') ?? undefined, tools: headers.get('x-mcp-tools') ?? undefined, toolsets: headers.get('x-mcp-toolsets') ?? undefined };
  if (Object.values(fromHeaders).some((v) => v !== undefined)) out.push(parseNarrowing(fromHeaders, { readOnly: 'X-MCP-Readonly', tools: 'X-MCP-Tools', toolsets: 'X-MCP-Toolsets' }, toolNames));
  return out;
}
