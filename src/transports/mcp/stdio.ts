// `wfe mcp`: MCP over stdio for desktop agents. Only protocol messages go to
// stdout; logs go to stderr. The key comes from SVC_API_KEY (or --key) and is
// checked on every call, so a key revoked mid-session is refused like REST.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Emulator } from '../../emulator';
import { V3_RULES, type CallInfo, type Rules } from '../../pipeline';
import { requestIdFrom } from '../web/respond';
import { createMcpServer, type ToolRunner } from './server';
import { callTool } from './tools';
import type { ToolNarrowing } from './narrowing';

const MISSING_KEY = 'No API key: set SVC_API_KEY in the environment of `wfe mcp` (or pass --key).';

/**
 * stdio has no address. Told no region, it serves the key's own region: the region check
 * could only compare the key's workspace with itself, so it is left out rather than resolving
 * the key a second time on every call to learn that region.
 */
const OWN_REGION: Rules = { ...V3_RULES, regional: false };

/** `narrowing`: `wfe mcp --read-only`, `--tools`, `--toolsets` (src/transports/mcp/narrowing.ts). */
export async function serveStdio(emu: Emulator, apiKey: string | undefined, region?: 'US' | 'EU', narrowing?: ToolNarrowing): Promise<() => Promise<void>> {
  const rules = region ? V3_RULES : OWN_REGION;
  const run: ToolRunner = (op, args, as) => {
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
  };
  const server = createMcpServer(emu, run, undefined, narrowing ? [narrowing] : []);
  const transport = new StdioServerTransport();
  await server.connect(transport);
  return () => server.close();
}
