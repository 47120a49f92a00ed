// `wfe mcp`: MCP over stdio for desktop agents. Only protocol messages go to
// stdout; logs go to stderr. The key comes from SVC_API_KEY (or --key) and is
// checked on every call, so a key revoked mid-session is refused like REST.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Emulator } from '../../emulator';
import type { CallInfo } from '../../pipeline';
import { requestIdFrom } from '../web/respond';
import { createMcpServer } from './server';
import { callTool } from './tools';

export async function serveStdio(emu: Emulator, apiKey: string | undefined, region?: 'US' | 'EU'): Promise<() => Promise<void>> {
  const server = createMcpServer(emu, (op, args, as) => {
    const info: CallInfo = {
      requestId: requestIdFrom(null),
      apiKey,
      region: region ?? regionOfKey(emu, apiKey),
      sourceIp: 'stdio',
      transport: 'mcp',
      pathAndQuery: '/mcp',
      missingKey: 'No API key: set SVC_API_KEY in the environment of `wfe mcp` (or pass --key).',
    };
    return callTool(emu, op, args, info, undefined, as);
  });
  const transport = new StdioServerTransport();
  await server.connect(transport);
  return () => server.close();
}

/** stdio has no address: serve the key's own region unless told otherwise. */
function regionOfKey(emu: Emulator, apiKey: string | undefined): 'US' | 'EU' {
  try {
    return emu.keys.resolve(apiKey, emu.clock.now()).workspace.region;
  } catch {
    return 'US';
  }
}
