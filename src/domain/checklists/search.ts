// POST /v3/checklists/search (spec v3 4.7 "by field values"; body designed in docs/checklists.md).
// Finds the checklists the actor may see whose field answers satisfy the conditions.
import type { Ctx } from '../../context';
import { validationError } from '../../errors';
import { decodeCursor, paginate, parseSort } from '../paging';
import { parseStoredDocument, versionDocument, type DocField } from '../../rows/template-document';
import { fullName, memberById } from '../../rows/people';
import { versionDocumentTexts } from '../../rows/templates';
import { checklistFieldValue } from '../../rows/field-values';
import { fileNamesOfChecklistField } from '../../rows/files';
import { DEFAULT_SORT, SORT_FIELDS, filterBinding, fullRow, type ChecklistFilters, selectChecklists, sortChecklists, templateIdOf, type ChecklistSortRow } from './list';
import { checklistView } from './view';

export const SEARCH_OPERATORS = ['is', 'isNot', 'contains', 'startsWith', 'isEmpty', 'isNotEmpty'] as const;
export type SearchOperator = (typeof SEARCH_OPERATORS)[number];

export interface FieldCondition {
  fieldKey?: string;
  fieldName?: string;
  operator?: SearchOperator;
  value?: string | number | boolean;
}

/** The list filters plus conditions on field answers. */
export interface SearchInput extends ChecklistFilters {
  fields: FieldCondition[];
  match?: 'all' | 'any';
  sort?: string;
  after?: string;
  pageSize?: number;
}

/** Every field of a template version, by key. */
function versionFields(ctx: Ctx, templateId: number, version: number, cache: Map<string, DocField[]>): DocField[] {
  const k = `${templateId}:${version}`;
  let fields = cache.get(k);
  if (!fields) {
    fields = versionDocument(ctx.db, templateId, version)?.tasks.flatMap((t) => t.fields ?? []) ?? [];
    cache.set(k, fields);
  }
  return fields;
}

/** The texts an answer offers for comparison (case-insensitive). */
function answerTexts(ctx: Ctx, field: DocField, value: unknown): string[] {
  const out: string[] = [];
  const add = (v: unknown): void => {
    if (v === null || v === undefined) return;
    if (Array.isArray(v)) return v.forEach(add);
    if (typeof v === 'object') {
      const o = v as Record<string, unknown>;
      if (typeof o.text === 'string') out.push(o.text);
      if (typeof o.recordKey === 'string') out.push(o.recordKey);
      if (typeof o.checklistKey === 'string') out.push(o.checklistKey);
      return;
    }
    if (field.type === 'Members' && typeof v === 'number') {
      out.push(String(v));
      const m = memberById(ctx.db, v);
      if (m) {
        const n = fullName(m);
        if (n) out.push(n);
        if (m.email) out.push(m.email);
      }
      return;
    }
    const s = String(v);
    if (s !== '') out.push(s);
  };
  add(value);
  return out;
}

function satisfies(texts: string[], c: FieldCondition): boolean {
  const op = c.operator ?? 'is';
  const want = String(c.value ?? '').toLowerCase();
  const lower = texts.map((t) => t.toLowerCase());
  switch (op) {
    case 'isEmpty': return lower.length === 0;
    case 'isNotEmpty': return lower.length > 0;
    case 'is': return lower.includes(want);
    case 'isNot': return !lower.includes(want);
    case 'contains': return lower.some((t) => t.includes(want));
    case 'startsWith': return lower.some((t) => t.startsWith(want));
  }
}

function checkConditions(ctx: Ctx, input: SearchInput): void {
  input.fields.forEach((c, i) => {
    const hasKey = c.fieldKey !== undefined;
    const hasName = c.fieldName !== undefined;
    if (hasKey === hasName) throw validationError(`fields[${i}] must have either fieldKey or fieldName, not both and not neither.`, `fields[${i}]`);
    const op = c.operator ?? 'is';
    const needsValue = op !== 'isEmpty' && op !== 'isNotEmpty';
    if (needsValue && c.value === undefined) throw validationError(`fields[${i}].value is required with the operator ${op}.`, `fields[${i}].value`);
    if (!needsValue && c.value !== undefined) throw validationError(`fields[${i}].value must be left out with the operator ${op}.`, `fields[${i}].value`);
  });
  if (input.templateKey === undefined) return;
  // With a template named, a field key or name it never had is a mistake worth answering.
  const templateId = templateIdOf(ctx, input.templateKey);
  const docs = versionDocumentTexts(ctx.db, templateId);
  const fields = docs.flatMap((d) => parseStoredDocument(d).tasks.flatMap((t) => t.fields ?? []));
  input.fields.forEach((c, i) => {
    if (c.fieldKey !== undefined && !fields.some((f) => f.id?.toLowerCase() === c.fieldKey!.toLowerCase())) {
      throw validationError(`fields[${i}].fieldKey names no field of the template ${input.templateKey}.`, `fields[${i}].fieldKey`);
    }
    if (c.fieldName !== undefined && !fields.some((f) => (f.label ?? '').toLowerCase() === c.fieldName!.trim().toLowerCase())) {
      throw validationError(`fields[${i}].fieldName names no field of the template ${input.templateKey}.`, `fields[${i}].fieldName`);
    }
  });
}

export function searchChecklists(ctx: Ctx, input: SearchInput) {
  const sort = parseSort(input.sort, SORT_FIELDS, DEFAULT_SORT);
  const pageSize = input.pageSize ?? 50;
  const binding = [
    'checklist-search',
    ...filterBinding(ctx, input),
    input.fields,
    input.match ?? 'all',
    sort,
    pageSize,
  ];
  checkConditions(ctx, input);
  decodeCursor(input.after, binding);
  const cache = new Map<string, DocField[]>();
  const matches = (row: ChecklistSortRow): boolean => {
    const fields = versionFields(ctx, row.template_id, row.template_version, cache);
    const results = input.fields.map((c) => {
      const targets =
        c.fieldKey !== undefined
          ? fields.filter((f) => f.id?.toLowerCase() === c.fieldKey!.toLowerCase())
          : fields.filter((f) => f.label !== undefined && f.label.toLowerCase() === c.fieldName!.trim().toLowerCase());
      if (targets.length === 0) return false; // the checklist has no such field: no condition holds
      return targets.some((f) => {
        let texts: string[];
        if (f.type === 'FileUpload') texts = fileNamesOfChecklistField(ctx.db, row.id, f.id!);
        else {
          const stored = checklistFieldValue(ctx.db, row.id, f.id!);
          texts = stored?.value ? answerTexts(ctx, f, JSON.parse(stored.value)) : [];
        }
        return satisfies(texts, c);
      });
    });
    return input.match === 'any' ? results.some(Boolean) : results.every(Boolean);
  };
  const rows = sortChecklists(selectChecklists(ctx, input).filter(matches), sort);
  const full = fullRow(ctx);
  return paginate(rows, pageSize, input.after, binding, (r) => checklistView(ctx, full(r)));
}
