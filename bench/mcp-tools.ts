// Bench rows of tools/list (issue 38, docs/mcp.md "Compact tool declarations"): the bytes an
// agent puts into a model's context, and the TypeScript SDK client's listTools time with its
// default validator (it compiles every tool's outputSchema with Ajv on each listTools).
// `BENCH_ONLY=mcp-tools npm run bench` runs only these rows; WFE_BENCH_BUNDLE=<file> measures
// another build of the bundle (a checkout before the change, for a before/after).
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Row } from './row';

const KEY = 'acme-admin-key';
const round = (n: number, d = 1) => Math.round(n * 10 ** d) / 10 ** d;
const kb = (n: number) => `${round(n / 1024, 1)} KB`;
const size = (v: unknown) => Buffer.byteLength(JSON.stringify(v ?? {}), 'utf8');

/** The goals of issue 38. */
export const TOOLS_LIST_GOALS = { totalBytes: 100 * 1024, perToolBytes: 8 * 1024, inputBytes: 40 * 1024, listToolsSeconds: 0.5 };

export interface ToolsListSizes {
  tools: number;
  total: number;
  input: number;
  output: number;
  largest: { name: string; bytes: number };
}

/** Sizes of a tools/list result: the whole JSON, input and output schemas together, the largest tool. */
export function toolsListSizes(result: { tools: { name: string; inputSchema?: unknown; outputSchema?: unknown }[] }): ToolsListSizes {
  let input = 0;
  let output = 0;
  let largest = { name: '', bytes: 0 };
  for (const t of result.tools) {
    input += size(t.inputSchema);
    output += t.outputSchema ? size(t.outputSchema) : 0;
    const bytes = size(t);
    if (bytes > largest.bytes) largest = { name: t.name, bytes };
  }
  return { tools: result.tools.length, total: size(result), input, output, largest };
}

/**
 * listTools over stdio against `wfe mcp` of the bundle, with the SDK client's default (Ajv)
 * validator: the first call of a new client, then the median of `samples` more (each listTools
 * compiles every outputSchema again). Wall time and the client's own CPU time.
 */
export async function mcpToolsRows(root: string, samples = 7): Promise<Row[]> {
  const bundle = process.env.WFE_BENCH_BUNDLE ?? join(root, 'dist', 'wfe.cjs');
  const client = new Client({ name: 'bench-tools-list', version: '1' });
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [bundle, 'mcp'], env: { ...(process.env as Record<string, string>), WFE_CLI: '1', SVC_API_KEY: KEY }, stderr: 'inherit' }),
  );
  try {
    const timed = async () => {
      const cpu = process.cpuUsage();
      const t = performance.now();
      const r = await client.listTools();
      const c = process.cpuUsage(cpu);
      return { r, ms: performance.now() - t, cpuMs: (c.user + c.system) / 1000 };
    };
    const first = await timed();
    const runs = [];
    for (let i = 0; i < samples; i++) runs.push(await timed());
    runs.sort((a, b) => a.ms - b.ms);
    const mid = runs[Math.floor(runs.length / 2)];
    const s = toolsListSizes(first.r);
    const g = TOOLS_LIST_GOALS;
    const seconds = mid.ms / 1000;
    return [
      {
        name: `MCP tools/list size (${s.tools} tools; input schemas ${kb(s.input)}, output schemas ${kb(s.output)})`,
        note: `${kb(s.total)}; largest ${s.largest.name} ${kb(s.largest.bytes)}`,
        target: '<= 100 KB, each tool <= 8 KB, inputs <= 40 KB',
        met: s.total <= g.totalBytes && s.largest.bytes <= g.perToolBytes && s.input <= g.inputBytes,
      },
      {
        name: `MCP SDK client listTools over stdio, default validator (median of ${samples}; first call ${round(first.ms)} ms, ${round(first.cpuMs)} ms CPU)`,
        p50: round(mid.ms),
        note: `${round(mid.cpuMs)} ms client CPU`,
        target: '< 0.5 s',
        met: seconds < g.listToolsSeconds && first.ms / 1000 < g.listToolsSeconds,
      },
    ];
  } finally {
    await client.close();
  }
}
