// The MCP ceiling for `npm run bench`: the SDK's own stdio server answering one constant tool
// (a member record shaped like get_member's), with none of the emulator's logic. Our `wfe mcp`
// tools/call is measured beside it in the same run.
'use strict';
const { McpServer } = require('@modelcontextprotocol/sdk/server/mcp.js');
const { StdioServerTransport } = require('@modelcontextprotocol/sdk/server/stdio.js');
const { z } = require('zod');

const member = { id: 103, type: 'TeamMember', name: 'Mia Member', firstName: 'Mia', lastName: 'Member', email: 'mia@acme.test', role: 'Member', isActive: true, timeZone: 'Europe/London' };
const server = new McpServer({ name: 'bare', version: '1.0.0' });
server.registerTool('get_member', { description: 'A constant member.', inputSchema: { memberId: z.number().int() } }, () => ({
  content: [{ type: 'text', text: JSON.stringify(member) }],
  structuredContent: member,
}));
server.connect(new StdioServerTransport());
