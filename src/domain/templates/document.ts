// The template document (docs/template-document.md). These types describe a
// stored version document (with ids). The zod schema and validator live beside it.
export interface DocNaming {
  name?: string;
  type?: string;
  id?: number;
}

export interface DocField {
  id?: string;
  ref?: string;
  type: string;
  label?: string;
  isRequired?: boolean;
  [k: string]: unknown;
}

export interface DocTask {
  id?: string;
  ref?: string;
  name: string;
  description?: string;
  isHeading?: boolean;
  isStop?: boolean;
  fields?: DocField[];
  assignees?: DocNaming[];
  isAssignedExclusively?: boolean;
  dueDate?: { relativeTo: 'checklistStart' | 'taskCompletion' | 'dateField'; task?: string; field?: string; offsetDays?: number; offsetHours?: number };
  tags?: string[];
}

export interface TemplateDocument {
  name: string;
  description?: string;
  allowAttachedTasks?: boolean;
  tags?: string[];
  parameters?: { name: string; field: string }[];
  tasks: DocTask[];
  conditions?: { id?: string; ref?: string; action: 'show' | 'hide'; targets: string[]; match?: 'all' | 'any'; when: { field: string; operator: string; value?: unknown }[] }[];
  notifications?: { id?: string; ref?: string; [k: string]: unknown }[];
}

/** Parsed documents are immutable per version: cache them by text. */
const parsed = new Map<string, TemplateDocument>();
export function parseStoredDocument(text: string): TemplateDocument {
  let d = parsed.get(text);
  if (!d) {
    d = JSON.parse(text) as TemplateDocument;
    if (parsed.size > 2000) parsed.clear();
    parsed.set(text, d);
  }
  return d;
}
