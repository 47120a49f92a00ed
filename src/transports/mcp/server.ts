// The low-level MCP Server with our own tools/call handler. McpServer.registerTool
// validates arguments itself and answers its own error text, which would break
// "same answer, same refusals" (spec v3 4.6); see docs/architecture.md.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  McpError,
  ErrorCode,
} from '@modelcontextprotocol/sdk/types.js';
import type { Emulator } from '../../emulator';
import { newGuid } from '../../ids';
import { callTool, errorResult, toolTable, type ToolResult } from './tools';
import { mcpPrompts, mcpResources } from './extras';
import { ApiError } from '../../errors';
import type { Operation } from '../../operations/define';

export const SERVER_INFO = { name: 'wfe', title: 'Workflow Emulator', version: '0.1.0' };

/** `run` authenticates (and, for stdio, charges) each call, then calls the tool. */
export type ToolRunner = (op: Operation, args: Record<string, unknown> | undefined) => ToolResult;

export function createMcpServer(emu: Emulator, runTool: ToolRunner, unknownToolRequestId: () => string = newGuid): Server {
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: {}, resources: {}, prompts: {} },
    instructions:
      'Workflow Emulator: the Workflow Service v3 API as MCP tools. Each tool answers what its REST route answers. Start with get_authoring_guide to write templates.',
  });
  const tools = toolTable(emu.ops);
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools.defs }));
  server.setRequestHandler(CallToolRequestSchema, (req) => {
    const op = tools.byName.get(req.params.name);
    if (!op) {
      return errorResult(new ApiError(404, 'NOT_FOUND', `No tool is named ${req.params.name}.`), unknownToolRequestId());
    }
    return runTool(op, req.params.arguments as Record<string, unknown> | undefined);
  });
  server.setRequestHandler(ListResourcesRequestSchema, () => ({
    resources: mcpResources.map(({ uri, name, description, mimeType }) => ({ uri, name, description, mimeType })),
  }));
  server.setRequestHandler(ReadResourceRequestSchema, (req) => {
    const r = mcpResources.find((x) => x.uri === req.params.uri);
    if (!r) throw new McpError(ErrorCode.InvalidParams, `No resource at ${req.params.uri}`);
    return { contents: [{ uri: r.uri, mimeType: r.mimeType, text: r.read() }] };
  });
  server.setRequestHandler(ListPromptsRequestSchema, () => ({
    prompts: mcpPrompts.map(({ name, description }) => ({ name, description })),
  }));
  server.setRequestHandler(GetPromptRequestSchema, (req) => {
    const p = mcpPrompts.find((x) => x.name === req.params.name);
    if (!p) throw new McpError(ErrorCode.InvalidParams, `No prompt named ${req.params.name}`);
    return { description: p.description, messages: [{ role: 'user', content: { type: 'text', text: p.text() } }] };
  });
  return server;
}
