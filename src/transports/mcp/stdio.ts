// `wfe mcp`: MCP over stdio for desktop agents. Only protocol messages go to
// stdout; logs go to stderr. The key comes from SVC_API_KEY (or --key) and is
// checked on every call, so a key revoked mid-session is refused like REST.
import { setFlagsFromString } from 'node:v8';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Emulator } from '../../emulator';
import { V3_RULES, type CallInfo, type Rules } from '../../pipeline';
import { requestIdFrom } from '../web/respond';
import { createMcpServer } from './server';
import { callTool } from './tools';

/**
 * A stdio session is one client's calls, one at a time. On Node 20 (V8 11, no Maglev) a tool
 * call's path (key, budget, zod input check, handler, result) reached its optimized speed only
 * after ~4,000 calls at V8's default interrupt budget (measured in process: calls 200-2,200 cost
 * 2-4x a warm call); at a quarter of it, after ~2,000. From Node 22 V8 tiers up to Maglev early
 * on its own, and V8 13 (Node 24, the single executable's) has no such flag: setting it there
 * prints an error. Set before the first call, so the call path's functions get the smaller budget.
 * Measured: docs/performance.md, issue 24, the MCP ceiling.
 */
const INTERRUPT_BUDGET_TIERING = Number(process.versions.v8.split('.')[0]) < 12;

const MISSING_KEY = 'No API key: set SVC_API_KEY in the environment of `wfe mcp` (or pass --key).';

/**
 * stdio has no address. Told no region, it serves the key's own region: the region check
 * could only compare the key's workspace with itself, so it is left out rather than resolving
 * the key a second time on every call to learn that region.
 */
const OWN_REGION: Rules = { ...V3_RULES, regional: false };

export async function serveStdio(emu: Emulator, apiKey: string | undefined, region?: 'US' | 'EU'): Promise<() => Promise<void>> {
  if (INTERRUPT_BUDGET_TIERING) setFlagsFromString('--interrupt-budget=16384');
  const rules = region ? V3_RULES : OWN_REGION;
  const server = createMcpServer(emu, (op, args, as) => {
    const info: CallInfo = {
      requestId: requestIdFrom(null),
      apiKey,
      region: region ?? 'US',
      sourceIp: 'stdio',
      transport: 'mcp',
      pathAndQuery: '/mcp',
      missingKey: MISSING_KEY,
      idempotencyKey: null,
    };
    return callTool(emu, op, args, info, undefined, as, rules);
  });
  const transport = new StdioServerTransport();
  await server.connect(transport);
  return () => server.close();
}
