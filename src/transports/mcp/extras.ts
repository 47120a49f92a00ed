// MCP resources and prompts beyond the tools (the authoring guide, for one).
// Areas push entries here; both MCP transports serve them.
export interface McpResource {
  uri: string;
  name: string;
  description: string;
  mimeType: string;
  read: () => string;
}
export interface McpPrompt {
  name: string;
  description: string;
  text: () => string;
}
export const mcpResources: McpResource[] = [];
export const mcpPrompts: McpPrompt[] = [];
