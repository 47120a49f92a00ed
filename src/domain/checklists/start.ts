// Starting a checklist from a template version: tasks copy their keys from the
// template (spec v3 2.1), default assignees, due dates from the rules, valueFrom
// parameters and tags. Used by POST /v3/checklists and the fixture loader alike.
import type { Db } from '../../store/open';
import { newGuid } from '../../ids';
import type { TemplateDocument } from '../templates/document';
import { resolveDocNaming } from '../people/naming';
import { applyTags } from '../tags/apply';

const DAY = 86_400_000;
const HOUR = 3_600_000;

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
}

export function startChecklist(db: Db, p: StartParams): { id: number; key: string } {
  const key = p.key ?? newGuid();
  const startedAt = p.startedAt ?? p.now;
  const id = Number(
    db
      .prepare(
        `INSERT INTO checklists (key, workspace_id, template_id, template_version, name, status, created_by, created_at, started_at, due_at)
         VALUES (?, ?, ?, ?, ?, 'InProgress', ?, ?, ?, ?)`,
      )
      .run(key, p.workspaceId, p.templateId, p.version, p.name, p.createdBy, p.now, startedAt, p.dueAt ?? null).lastInsertRowid,
  );
  const insertTask = db.prepare(
    `INSERT INTO tasks (key, workspace_id, checklist_id, position, name, description, is_heading, is_stop, status, due_at, is_assigned_exclusively, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertAssignee = db.prepare('INSERT OR IGNORE INTO task_assignees (task_id, assignee_type, assignee_id) VALUES (?, ?, ?)');
  const setValue = db.prepare('INSERT OR REPLACE INTO field_values (task_id, field_key, value, updated_at, updated_by) VALUES (?, ?, ?, ?, ?)');

  // Field values given as parameters: by parameter name, field key or field name.
  const values = new Map<string, unknown>();
  const fieldsByRef = new Map<string, { key: string }>();
  for (const t of p.doc.tasks) for (const f of t.fields ?? []) if (f.ref && f.id) fieldsByRef.set(f.ref, { key: f.id });
  for (const [pname, pvalue] of Object.entries(p.parameters ?? {})) {
    const param = p.doc.parameters?.find((x) => x.name === pname);
    if (param && fieldsByRef.has(param.field)) {
      values.set(fieldsByRef.get(param.field)!.key, pvalue);
      continue;
    }
    for (const t of p.doc.tasks)
      for (const f of t.fields ?? []) if (f.id === pname || f.label === pname || f.ref === pname) values.set(f.id!, pvalue);
  }
  for (const t of p.doc.tasks)
    for (const f of t.fields ?? []) {
      const vf = f.valueFrom as { parameter?: string } | undefined;
      if (vf?.parameter && p.parameters && vf.parameter in p.parameters) values.set(f.id!, p.parameters[vf.parameter]);
    }

  p.doc.tasks.forEach((t, i) => {
    const heading = t.isHeading === true;
    let due: number | null = null;
    if (!heading && t.dueDate) {
      const offset = (t.dueDate.offsetDays ?? 0) * DAY + (t.dueDate.offsetHours ?? 0) * HOUR;
      if (t.dueDate.relativeTo === 'checklistStart') due = startedAt + offset;
      if (t.dueDate.relativeTo === 'dateField' && t.dueDate.field) {
        const fk = fieldsByRef.get(t.dueDate.field)?.key;
        const v = fk ? values.get(fk) : undefined;
        if (typeof v === 'string' && !Number.isNaN(Date.parse(v))) due = Date.parse(v) + offset;
      }
    }
    const taskId = Number(
      insertTask.run(
        t.id!,
        p.workspaceId,
        id,
        i + 1,
        t.name,
        t.description ?? null,
        heading ? 1 : 0,
        t.isStop ? 1 : 0,
        heading ? null : 'Incomplete',
        due,
        t.isAssignedExclusively ? 1 : 0,
        p.now,
      ).lastInsertRowid,
    );
    if (!heading) {
      for (const a of resolveDocNaming(db, p.workspaceId, t.assignees ?? [])) insertAssignee.run(taskId, a.type, a.id);
      if (t.tags?.length) applyTags(db, p.workspaceId, 'task', taskId, t.tags, p.now);
    }
    for (const f of t.fields ?? []) if (f.id && values.has(f.id)) setValue.run(taskId, f.id, JSON.stringify(values.get(f.id)), p.now, p.createdBy);
  });
  return { id, key };
}
