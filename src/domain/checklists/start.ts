// Starting a checklist from a template version: tasks copy their keys from the
// template (spec v3 2.1), default assignees, due dates from the rules, valueFrom
// parameters and tags. Used by POST /v3/checklists and the fixture loader alike.
import type { Db } from '../../store/open';
import { newGuid } from '../../ids';
import type { TemplateDocument } from '../../rows/template-document';
import { resolveDocNaming } from '../people/naming';
import { applyTags } from '../tags/apply';
import { syncStopVisibility } from '../tasks/stop-visibility';
import { insertChecklistRow } from '../../rows/checklists';
import { insertTaskOfVersion } from '../../rows/tasks';
import { addTaskAssignee } from '../../rows/task-assignees';
import { putFieldValue } from '../../rows/field-values';
import { DAY_MS, HOUR_MS } from '../../clock';


export interface StartParams {
  workspaceId: number;
  templateId: number;
  version: number;
  doc: TemplateDocument;
  name: string;
  createdBy: number | null;
  now: number;
  startedAt?: number;
  dueAt?: number | null;
  key?: string;
  /** Field values by parameter name, field key or field name. */
  parameters?: Record<string, unknown>;
  /** Field values by field key, already resolved and checked (POST /v3/checklists). */
  values?: Map<string, unknown>;
}

/**
 * Field values named by parameter name (the document's `parameters`, and fields whose
 * `valueFrom.parameter` names it), field key, field ref or field label (case-insensitive).
 * `unknown` lists the names that matched nothing.
 */
export function resolveParameters(doc: TemplateDocument, parameters: Record<string, unknown>): { values: Map<string, unknown>; unknown: string[] } {
  const values = new Map<string, unknown>();
  const unknown: string[] = [];
  const fields = doc.tasks.flatMap((t) => t.fields ?? []).filter((f) => f.id);
  const lc = (s: string | undefined) => (s ?? '').trim().toLowerCase();
  for (const [pname, pvalue] of Object.entries(parameters)) {
    const hits = new Set<string>();
    const param = doc.parameters?.find((x) => x.name === pname);
    if (param) for (const f of fields) if (f.ref === param.field) hits.add(f.id!);
    for (const f of fields) {
      const vf = f.valueFrom as { parameter?: string } | undefined;
      if (vf?.parameter === pname) hits.add(f.id!);
    }
    if (hits.size === 0) {
      const byKey = fields.filter((f) => lc(f.id) === lc(pname));
      const byRef = byKey.length ? byKey : fields.filter((f) => f.ref === pname);
      const byLabel = byRef.length ? byRef : fields.filter((f) => f.label !== undefined && lc(f.label) === lc(pname));
      for (const f of byLabel) hits.add(f.id!);
    }
    if (hits.size === 0) unknown.push(pname);
    for (const k of hits) values.set(k, pvalue);
  }
  return { values, unknown };
}

export function startChecklist(db: Db, p: StartParams): { id: number; key: string } {
  const key = p.key ?? newGuid();
  const startedAt = p.startedAt ?? p.now;
  const id = insertChecklistRow(db, {
    key,
    workspaceId: p.workspaceId,
    templateId: p.templateId,
    version: p.version,
    name: p.name,
    createdBy: p.createdBy,
    now: p.now,
    startedAt,
    dueAt: p.dueAt ?? null,
  });

  const fieldsByRef = new Map<string, { key: string }>();
  for (const t of p.doc.tasks) for (const f of t.fields ?? []) if (f.ref && f.id) fieldsByRef.set(f.ref, { key: f.id });
  const values = p.values ?? resolveParameters(p.doc, p.parameters ?? {}).values;

  p.doc.tasks.forEach((t, i) => {
    const heading = t.isHeading === true;
    let due: number | null = null;
    if (!heading && t.dueDate) {
      const offset = (t.dueDate.offsetDays ?? 0) * DAY_MS + (t.dueDate.offsetHours ?? 0) * HOUR_MS;
      if (t.dueDate.relativeTo === 'checklistStart') due = startedAt + offset;
      if (t.dueDate.relativeTo === 'dateField' && t.dueDate.field) {
        const fk = fieldsByRef.get(t.dueDate.field)?.key;
        const v = fk ? values.get(fk) : undefined;
        if (typeof v === 'string' && !Number.isNaN(Date.parse(v))) due = Date.parse(v) + offset;
      }
    }
    const taskId = insertTaskOfVersion(db, t, { workspaceId: p.workspaceId, checklistId: id, position: i + 1, dueAt: due, now: p.now });
    if (!heading) {
      for (const a of resolveDocNaming(db, p.workspaceId, t.assignees ?? [])) addTaskAssignee(db, taskId, a.type, a.id);
      if (t.tags?.length) applyTags(db, p.workspaceId, 'task', taskId, t.tags, p.now);
    }
    for (const f of t.fields ?? []) if (f.id && values.has(f.id)) putFieldValue(db, { task_id: taskId, field_key: f.id, value: JSON.stringify(values.get(f.id)), updated_at: p.now, updated_by: p.createdBy });
  });
  syncStopVisibility({ db }, id, p.doc);
  return { id, key };
}
