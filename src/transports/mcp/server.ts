// The low-level MCP Server with our own tools/call handler. McpServer.registerTool
// validates arguments itself and answers its own error text, which would break
// "same answer, same refusals" (spec v3 4.6); see docs/architecture.md.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  ErrorCode,
} from '@modelcontextprotocol/sdk/types.js';
import type { Emulator } from '../../emulator';
import { requestIdFrom } from '../web/respond';
import { errorResult, type ToolResult } from './tools';
import { matchTemplate } from '../../operations/mcp-catalog';
import { validationError } from '../../errors';
import type { Operation } from '../../operations/define';
import { prebuiltToolDefs } from '../../prebuilt';
import { SHARED_REFUSALS } from '../../contract/refusals';
import { keptByAll, type ToolNarrowing } from './narrowing';

export const SERVER_INFO = { name: 'wfe', title: 'Workflow Emulator', version: '0.1.0' };

/** `run` authenticates (and, for stdio, charges) each call, then calls the tool. */
/** `as`: a tool call, or a resource read through an operation (charged as resources/read, cheap). */
export type ToolRunner = (op: Operation, args: Record<string, unknown> | undefined, as?: 'tool' | 'resource') => Promise<ToolResult>;

/** MCP's "resource not found" error code (MCP specification, resources). */
const RESOURCE_NOT_READABLE = -32002;

/**
 * A JSON-RPC error with our message as it is. The SDK's McpError puts "MCP error <code>: " into
 * its own message, which the protocol layer sends; the client's McpError adds it again, so
 * clients printed the prefix twice.
 */
export function rpcError(code: number, message: string, data?: unknown): Error & { code: number; data?: unknown } {
  return Object.assign(new Error(message), { code, ...(data !== undefined ? { data } : {}) });
}

/**
 * What every tool shares, said once here rather than in each tool (docs/mcp.md): how a refusal
 * reads, and the refusals any call may give.
 */
const INSTRUCTIONS =
  'Workflow Emulator: the Workflow Service v3 API as MCP tools. Each tool answers what its REST route answers. Start with get_authoring_guide to write templates. ' +
  'A refusal is a tool result with isError set and the v3 error body {error: {code, message, requestId, field?}} in structuredContent; each tool names its own codes. ' +
  `Any call may also be refused with: ${[...SHARED_REFUSALS].join(', ')}. ` +
  'Writes take idempotencyKey: a retry with the same key and arguments answers the first result again, marked _meta.idempotentReplay.';

/**
 * `narrowing`: what this connection may see and call (src/transports/mcp/narrowing.ts); every
 * entry applies. A tool it leaves out is unknown here: neither listed nor callable.
 */
export function createMcpServer(emu: Emulator, runTool: ToolRunner, unknownToolRequestId: () => string = () => requestIdFrom(null), narrowing: readonly ToolNarrowing[] = []): Server {
  const server = new Server(SERVER_INFO, { capabilities: { tools: {}, resources: {}, prompts: {} }, instructions: INSTRUCTIONS });
  const tools = emu.table;
  const allowed = (op: Operation | undefined): op is Operation => op !== undefined && keptByAll(narrowing, op);
  server.setRequestHandler(ListToolsRequestSchema, () => {
    const all = prebuiltToolDefs(tools.ops) ?? tools.toolDefs;
    return { tools: narrowing.length === 0 ? all : all.filter((t) => allowed(tools.toolsByName.get(t.name))) };
  });
  // tools/call is answered by the SDK's public fallback handler, which receives the request as
  // sent. A handler set with setRequestHandler(CallToolRequestSchema) is wrapped by the Server,
  // which answers malformed `arguments` with a JSON-RPC error (a zod dump), where a tool must
  // answer bad arguments like its REST route does (spec v3 4.6 rule 2); the wrapper also parses
  // every request and result against the SDK's zod schemas. Any other method no handler takes
  // gets the answer the SDK gives when there is no fallback.
  server.fallbackRequestHandler = async (req) => {
    if (req.method !== 'tools/call') throw rpcError(ErrorCode.MethodNotFound, 'Method not found');
    const params = req.params as { name?: unknown; arguments?: unknown } | undefined;
    if (!params || typeof params !== 'object' || typeof params.name !== 'string') {
      throw rpcError(ErrorCode.InvalidParams, 'tools/call needs params.name, the tool name (a string).');
    }
    const op = tools.toolsByName.get(params.name);
    // An unknown tool is a protocol error (MCP specification, tools: "Unknown tools" -32602),
    // not a tool's refusal; so is a tool this connection's narrowing leaves out.
    if (!allowed(op)) throw rpcError(ErrorCode.InvalidParams, `Unknown tool: ${params.name}`);
    const args = params.arguments;
    if (args !== undefined && (args === null || typeof args !== 'object' || Array.isArray(args))) {
      return errorResult(validationError('Tool arguments must be a JSON object of named arguments.', 'arguments'), unknownToolRequestId());
    }
    return runTool(op, args as Record<string, unknown> | undefined);
  };
  const catalog = emu.catalog;
  server.setRequestHandler(ListResourcesRequestSchema, () => ({
    resources: catalog.resources.map(({ uri, name, description, mimeType }) => ({ uri, name, description, mimeType })),
  }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: catalog.resourceTemplates.map(({ uriTemplate, name, description, mimeType }) => ({ uriTemplate, name, description, mimeType })),
  }));
  const opsById = new Map(emu.ops.map((o) => [o.id, o]));
  server.setRequestHandler(ReadResourceRequestSchema, async (req) => {
    const uri = req.params.uri;
    const r = catalog.resources.find((x) => x.uri === uri);
    if (r) return { contents: [{ uri, mimeType: r.mimeType, text: r.read() }] };
    for (const t of catalog.resourceTemplates) {
      const vars = matchTemplate(t.uriTemplate, uri);
      const op = vars && opsById.get(t.operation);
      if (!vars || !op) continue;
      // Read through the operation: the same answer and refusals as its route, for this key.
      const result = await runTool(op, vars, 'resource');
      if (result.isError) {
        const err = result.structuredContent as { error: { code: string; message: string } };
        throw rpcError(RESOURCE_NOT_READABLE, `${err.error.code}: ${err.error.message}`, result.structuredContent);
      }
      return { contents: [{ uri, mimeType: t.mimeType, text: JSON.stringify(result.structuredContent) }] };
    }
    throw rpcError(RESOURCE_NOT_READABLE, `No resource at ${uri}. resources/list and resources/templates/list name them.`);
  });
  server.setRequestHandler(ListPromptsRequestSchema, () => ({
    prompts: catalog.prompts.map(({ name, description }) => ({ name, description })),
  }));
  server.setRequestHandler(GetPromptRequestSchema, (req) => {
    const p = catalog.prompts.find((x) => x.name === req.params.name);
    if (!p) throw rpcError(ErrorCode.InvalidParams, `No prompt named ${req.params.name}`);
    return { description: p.description, messages: [{ role: 'user', content: { type: 'text', text: p.text() } }] };
  });
  return server;
}
