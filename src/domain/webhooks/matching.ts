// Which subscriptions an event reaches (spec v3 6, 6.3; legacy spec 4.7). Each
// subscription row is tested once, so a subscription matching in more than one
// way (a legacy task_completed with both taskKey and templateKey) gets one delivery
// (spec v3 6 rule 7).
import type { Db } from '../../store/open';
import { declareMemo, memoOn, memoized } from '../../store/memo';
import { ALL_EVENTS } from './events';
import { activeWebhooksFor, type WebhookRow } from '../../rows/webhooks';
import { taskFactsById, taskIdOfComment, templateKeyOfChecklistRow } from '../../rows/event-facts';

/** What an event is about, as far as scopes can tell. */
export interface EventFacts {
  /** Template of the checklist (a standalone task's attached checklist); null for a standalone task not attached. */
  templateKey: string | null;
  /** Task key (template task key, or a standalone task's own key). */
  taskKey: string | null;
  fieldKey: string | null;
}

// Every task event reads which task and template it names: kept until the tables they come from
// are written (store/memo.ts). A status write moves neither.
const templateKeyOf = memoized(
  { name: 'template key of checklist', reads: [{ table: 'checklists' }, { table: 'templates', columns: ['id', 'key'] }] },
  (db, checklistId: number) => templateKeyOfChecklistRow(db, checklistId)?.toLowerCase() ?? null,
);
const taskRow = memoized({ name: 'task event facts', reads: [{ table: 'tasks', columns: ['id', 'key', 'checklist_id', 'attached_checklist_id'] }] }, (db, taskId: number) => taskFactsById(db, taskId) ?? null);

function templateKeyOfChecklist(db: Db, checklistId: number | null): string | null {
  return checklistId === null ? null : templateKeyOf(db, checklistId);
}

function taskFacts(db: Db, taskId: unknown): EventFacts | undefined {
  if (typeof taskId !== 'number') return undefined;
  const t = taskRow(db, taskId);
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
      const taskId = taskIdOfComment(db, subject.commentId);
      return taskId !== undefined ? taskFacts(db, taskId) : undefined;
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

// The active subscriptions of a workspace for an event type, remembered until a webhook row may
// have changed (store/memo.ts): every write that fires an
// event looked them up. Shared: callers only read the rows.
const SUBSCRIPTIONS = declareMemo({ name: 'active webhooks', reads: ['webhooks'] });

export function matchingSubscriptions(db: Db, workspaceId: number, eventType: string, f: EventFacts): WebhookRow[] {
  const active = memoOn<string, readonly WebhookRow[]>(db, SUBSCRIPTIONS).get(`${workspaceId}\n${eventType}`, () => activeWebhooksFor(db, workspaceId, eventType, ALL_EVENTS));
  return active.filter((w) => matches(w, eventType, f));
}
