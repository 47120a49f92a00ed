// MCP resources, resource templates and prompts, declared as data beside the
// operation table and served by both MCP transports (src/transports/mcp/server.ts).
// A resource template reads through an operation, so it answers exactly what the
// operation answers for the caller's key, refusals included.
import { guideText } from '../domain/template-format/guide';
import { templateJsonSchema } from '../domain/template-format/document-schema';

export interface McpResourceDecl {
  uri: string;
  name: string;
  description: string;
  mimeType: string;
  read: () => string;
}

export interface McpResourceTemplateDecl {
  /** RFC 6570 level 1: `{name}` placeholders, each one path segment. */
  uriTemplate: string;
  name: string;
  description: string;
  mimeType: string;
  /** The operation (by id) that reads it; the placeholders are its arguments. */
  operation: string;
}

export interface McpPromptDecl {
  name: string;
  description: string;
  text: () => string;
}

export interface McpCatalog {
  resources: McpResourceDecl[];
  resourceTemplates: McpResourceTemplateDecl[];
  prompts: McpPromptDecl[];
}

export const mcpCatalog: McpCatalog = {
  resources: [
    {
      uri: 'wfe://guides/template-document',
      name: 'template-authoring-guide',
      description: 'How to write a template document, with a worked example (same text as get_authoring_guide).',
      mimeType: 'text/markdown',
      read: guideText,
    },
    {
      uri: 'wfe://schemas/template-document.json',
      name: 'template-document-schema',
      description: 'JSON Schema of the template document (same as get_template_schema).',
      mimeType: 'application/schema+json',
      read: () => JSON.stringify(templateJsonSchema(), null, 2),
    },
  ],
  resourceTemplates: [
    {
      uriTemplate: 'wfe://content-types/{type}',
      name: 'content-type',
      description: 'One content type of the template document: its properties and rules (same as describe_content_type).',
      mimeType: 'application/json',
      operation: 'describeContentType',
    },
    {
      uriTemplate: 'wfe://templates/{key}/document',
      name: 'template-document',
      description: "A template's document, latest version, with its ids (same as export_template).",
      mimeType: 'application/json',
      operation: 'exportTemplate',
    },
    {
      uriTemplate: 'wfe://checklists/{checklistKey}',
      name: 'checklist',
      description: 'A checklist as the key may see it (same as GET /v3/checklists/{checklistKey}).',
      mimeType: 'application/json',
      operation: 'getChecklist',
    },
  ],
  prompts: [
    {
      name: 'author_template',
      description: 'Write a template document for a process, validate it, and create it.',
      text: () =>
        [
          'You are writing a Workflow Service template document. Follow this guide exactly.',
          'Loop: write the document, call validate_template, fix every error (path tells you where), then create_template.',
          'To change an existing template: export_template, edit keeping every id, validate_template with forTemplate, create_template_version.',
          '',
          guideText(),
        ].join('\n'),
    },
  ],
};

/** The placeholders of a URI that matches a template, or undefined. */
export function matchTemplate(uriTemplate: string, uri: string): Record<string, string> | undefined {
  const names: string[] = [];
  const rx = new RegExp('^' + uriTemplate.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, (_m, n: string) => (names.push(n), '([^/]+)')) + '$');
  const m = rx.exec(uri);
  if (!m) return undefined;
  try {
    return Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(m[i + 1])]));
  } catch {
    return undefined;
  }
}
