// The template document (docs/template-document.md). These types describe a
// stored version document: every task, field, option, item, column, condition and
// notification carries its `id` (task id = task key, field id = field key). The one
// zod schema is schema.ts; validate.ts checks documents against it and their meaning.
import type { Db } from '../store/open';
import { declareMemo, memoOn } from '../store/memo';
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
  /** `task` and `field` are refs (taskCompletion / dateField). */
  dueDate?: { relativeTo: 'checklistStart' | 'taskCompletion' | 'dateField'; task?: string; field?: string; offsetDays?: number; offsetHours?: number };
  tags?: string[];
}

export interface TemplateDocument {
  name: string;
  description?: string;
  allowAttachedTasks?: boolean;
  tags?: string[];
  /** Checklist parameters: `field` is the ref of the field the value fills (fields may also bind with valueFrom.parameter). */
  parameters?: { name: string; field: string; description?: string }[];
  tasks: DocTask[];
  /** targets: refs of tasks or fields; when[].field: a field ref; operators: src/domain/template-format/operators.ts. */
  conditions?: { id?: string; ref?: string; action: 'show' | 'hide'; targets: string[]; match?: 'all' | 'any'; when: { field: string; operator: string; value?: string | number | boolean }[] }[];
  notifications?: { id?: string; ref?: string; on: 'taskCompleted' | 'taskDue' | 'checklistCompleted'; task?: string; to: DocNaming[]; subject: string; message?: string }[];
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

/** A linked field's `dataSet` in the template document (docs/template-document.md). */
export interface DataSetLink {
  name?: string;
  key?: string;
  view?: string;
  viewKey?: string;
  displayField?: string;
  displayFieldKey?: string;
  /** Table fields: which record field fills which column. */
  columns?: { field?: string; column?: string }[];
}

const DOCUMENTS = declareMemo({ name: 'template version document', reads: ['template_versions'] });

/**
 * A template version's document, parsed, remembered until a template version row may have
 * changed (store/memo.ts).
 */
export function versionDocument(db: Db, templateId: number, version: number): TemplateDocument | undefined {
  return memoOn<string, TemplateDocument | undefined>(db, DOCUMENTS).get(`${templateId}/${version}`, () => {
    const row = db.prepare<[number, number], { document: string }>('SELECT document FROM template_versions WHERE template_id = ? AND version = ?').get(templateId, version);
    return row ? parseStoredDocument(row.document) : undefined;
  });
}
