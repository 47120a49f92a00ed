// Which subscriptions an event reaches (spec v3 6, 6.3; legacy spec 4.7). Each
// subscription row is tested once, so a subscription matching in more than one
// way (a legacy task_completed with both taskKey and templateKey) gets one delivery
// (spec v3 6 rule 7).
import type { Db } from '../../store/open';
import { ALL_EVENTS } from './events';
import type { WebhookRow } from './subscriptions';

/** What an event is about, as far as scopes can tell. */
export interface EventFacts {
  /** Template of the checklist (a standalone task's attached checklist); null for a standalone task not attached. */
  templateKey: string | null;
  /** Task key (template task key, or a standalone task's own key). */
  taskKey: string | null;
  fieldKey: string | null;
}

interface TaskFactsRow {
  key: string;
  checklist_id: number | null;
  attached_checklist_id: number | null;
}

function templateKeyOfChecklist(db: Db, checklistId: number | null): string | null {
  if (checklistId === null) return null;
  const r = db.prepare<[number], { key: string }>('SELECT t.key FROM checklists c JOIN templates t ON t.id = c.template_id WHERE c.id = ?').get(checklistId);
  return r?.key.toLowerCase() ?? null;
}

function taskFacts(db: Db, taskId: unknown): EventFacts | undefined {
  if (typeof taskId !== 'number') return undefined;
  const t = db.prepare<[number], TaskFactsRow>('SELECT key, checklist_id, attached_checklist_id FROM tasks WHERE id = ?').get(taskId);
  if (!t) return undefined;
  return { taskKey: t.key.toLowerCase(), templateKey: templateKeyOfChecklist(db, t.checklist_id ?? t.attached_checklist_id), fieldKey: null };
}

/** Facts read inside the causing transaction; undefined when the subject names nothing. */
export function factsFor(db: Db, eventType: string, subject: Record<string, unknown>): EventFacts | undefined {
  switch (eventType) {
    case 'new_checklist':
    case 'checklist_completed': {
      if (typeof subject.checklistId !== 'number') return undefined;
      const templateKey = templateKeyOfChecklist(db, subject.checklistId);
      return templateKey === null ? undefined : { templateKey, taskKey: null, fieldKey: null };
    }
    case 'task_completed':
    case 'task_assigned':
      return taskFacts(db, subject.taskId);
    case 'file_uploaded': {
      const f = taskFacts(db, subject.taskId);
      return f && typeof subject.fieldKey === 'string' ? { ...f, fieldKey: subject.fieldKey.toLowerCase() } : undefined;
    }
    case 'comment_created': {
      if (typeof subject.commentId !== 'number') return undefined;
      const c = db.prepare<[number], { task_id: number }>('SELECT task_id FROM comments WHERE id = ?').get(subject.commentId);
      return c ? taskFacts(db, c.task_id) : undefined;
    }
    default:
      return { templateKey: null, taskKey: null, fieldKey: null };
  }
}

/** Whether one subscription takes the event (scope rules of spec v3 6 and 6.3). */
export function matches(w: WebhookRow, eventType: string, f: EventFacts): boolean {
  if (!w.is_active) return false;
  if (w.event_type === ALL_EVENTS) return true;
  if (w.event_type !== eventType) return false;
  // Legacy task_completed may hold both keys; either fires (legacy spec 4.7).
  const keys: [string | null, string | null][] = [
    [w.template_key, f.templateKey],
    [w.task_key, f.taskKey],
    [w.field_key, f.fieldKey],
  ];
  const scoped = keys.filter(([k]) => k !== null);
  if (scoped.length === 0) return true; // Workspace scope
  return scoped.some(([k, v]) => v !== null && k === v);
}

export function matchingSubscriptions(db: Db, workspaceId: number, eventType: string, f: EventFacts): WebhookRow[] {
  return db
    .prepare<[number, string, string], WebhookRow>('SELECT * FROM webhooks WHERE workspace_id = ? AND (event_type = ? OR event_type = ?) AND is_active = 1 ORDER BY id')
    .all(workspaceId, eventType, ALL_EVENTS)
    .filter((w) => matches(w, eventType, f));
}
