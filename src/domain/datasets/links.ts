// Template fields linked to a Data Set (legacy spec 4.8: delete 409 with `templates`,
// field delete 409 for Display Field or Table Column Mapping; spec v3 4.7 /connections).
// Template documents name the Data Set (by name, or a system set's slug), its view and
// display field (src/domain/templates/datasets.ts); the latest version of each template
// of the workspace is what links it.
import type { Ctx } from '../../context';
import { parseStoredDocument } from '../../rows/template-document';
import type { DataSetRow, FieldRow } from './lookup';
import type { DataSetLink } from '../../rows/template-document';
import { latestDocuments } from '../../rows/templates';

const LINKABLE = ['DropDown', 'MultiChoice', 'SubTasks', 'Table'];

export interface Connection {
  templateId: number;
  templateKey: string;
  templateName: string;
  taskKey: string;
  fieldKey: string;
  fieldType: string;
  fieldLabel?: string;
  link: DataSetLink;
}

const same = (a: string | undefined, b: string | null | undefined) => a !== undefined && b != null && a.trim().toLowerCase() === b.trim().toLowerCase();

function linksTo(ds: DataSetRow, l: DataSetLink): boolean {
  return same(l.key, ds.key) || same(l.name, ds.name) || same(l.name, ds.slug ?? undefined);
}

/** Every linked field of the latest version of each of the workspace's templates, in template then document order. */
export function connectionsOf(ctx: Ctx, ds: DataSetRow): Connection[] {
  const rows = latestDocuments(ctx.db, ctx.workspace.id);
  const out: Connection[] = [];
  for (const t of rows) {
    if (!t.document.includes('dataSet')) continue;
    const doc = parseStoredDocument(t.document);
    for (const task of doc.tasks ?? []) {
      for (const f of task.fields ?? []) {
        const l = f.dataSet as DataSetLink | undefined;
        if (!l || typeof l !== 'object' || !LINKABLE.includes(f.type) || !linksTo(ds, l)) continue;
        out.push({ templateId: t.id, templateKey: t.key, templateName: t.name, taskKey: task.id!, fieldKey: f.id!, fieldType: f.type, fieldLabel: typeof f.label === 'string' ? f.label : undefined, link: l });
      }
    }
  }
  return out;
}

/** Templates linked to the set, each once: `{id, name}` as the legacy 409 names them. */
export function linkedTemplates(conns: Connection[]): { key: string; name: string }[] {
  const seen = new Map<string, string>();
  for (const c of conns) if (!seen.has(c.templateKey)) seen.set(c.templateKey, c.templateName);
  return [...seen].map(([key, name]) => ({ key, name }));
}

/** Whether a linked field uses this Data Set field as its Display Field or in its Table Column Mapping. */
export function usesField(c: Connection, field: FieldRow, fields: FieldRow[]): boolean {
  const l = c.link;
  if (c.fieldType === 'Table') {
    // A Table without explicit columns maps every field (templates/datasets.ts tableColumns).
    if (!l.columns?.length) return true;
    return l.columns.some((col) => same(col.field, field.name));
  }
  if (l.displayFieldKey !== undefined) return same(l.displayFieldKey, field.key);
  if (l.displayField !== undefined) return same(l.displayField, field.name);
  return fields[0]?.id === field.id; // no display field named: the first field shows
}

/** Whether a linked field shows this view (by name or key; no view named means the default view). */
export function usesView(c: Connection, view: { key: string; name: string; is_default: number }): boolean {
  const l = c.link;
  if (l.viewKey !== undefined) return same(l.viewKey, view.key);
  if (l.view !== undefined) return same(l.view, view.name);
  return view.is_default === 1;
}
