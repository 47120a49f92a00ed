// Webhooks: subscriptions, the outbox of events and their deliveries (schema.sql version 1,
// docs/webhooks.md): declarations (store/columns.ts).
import { col, table } from '../columns';

export const webhooksTable = table('webhooks', {
  id: col.id(),
  /** The subscription id (a GUID). */
  key: col.text(),
  workspace_id: col.int(),
  api: col.oneOf<'v2' | 'v3' | 'emulator'>(),
  /** The legacy `source` label. */
  source: col.textOrNull(),
  event_type: col.text(),
  target_url: col.text(),
  /** Workspace, Template, Task or Field (src/domain/webhooks/events.ts ScopeType). */
  scope_type: col.oneOfOrNull<'Workspace' | 'Template' | 'Task' | 'Field'>(),
  template_key: col.textOrNull(),
  task_key: col.textOrNull(),
  field_key: col.textOrNull(),
  secret: col.textOrNull(),
  is_active: col.intDefault(1),
  created_by: col.intOrNull(),
  created_at: col.int(),
});

/** The outbox (docs/webhooks.md): written in the transaction of the change that caused the event. */
export const eventsTable = table('events', {
  id: col.id(),
  key: col.text(),
  workspace_id: col.int(),
  event_type: col.text(),
  /** JSON: what the body is built from (src/event-subjects.ts). */
  subject: col.textOrNull(),
  actor_id: col.intOrNull(),
  /** The exact payload bytes, built once. */
  body: col.textOrNull(),
  /** pending, built, dropped, unmatched. */
  state: col.textDefault('pending'),
  drop_reason: col.textOrNull(),
  created_at: col.int(),
  processed_at: col.intOrNull(),
});

export const deliveriesTable = table('deliveries', {
  id: col.id(),
  key: col.text(),
  event_id: col.int(),
  webhook_id: col.intOrNull(),
  target_url: col.text(),
  /** pending, delivered, failed, dropped, cancelled. */
  status: col.textDefault('pending'),
  attempts: col.intDefault(0),
  next_attempt_at: col.int(),
  last_status: col.intOrNull(),
  last_error: col.textOrNull(),
  /** The first 2 KB of the last answer's body. */
  last_response: col.textOrNull(),
  /** JSON of the headers sent. */
  headers: col.textOrNull(),
  /** JSON array: {at, status, error, durationMs}. */
  attempt_log: col.textDefault('[]'),
  replay_of: col.intOrNull(),
  created_at: col.int(),
  delivered_at: col.intOrNull(),
});
