// What the domain hands the event hook (ctx.hooks.event) with each webhook event. Types only,
// importing nothing: the context declares the hook with them, the outbox and the payload builders
// read them, and domain/webhooks/events.ts checks they name exactly the events it lists.

/** A Data Set record field's value before and after an update (spec v3 6.4 `changes`). */
export type RecordChanges = Record<string, { before: unknown; after: unknown }>;

/**
 * What the domain hands the event hook with each event (ctx.hooks.event), by event: the ids the
 * payload is built from when the event is processed (src/webhooks/payloads/build.ts). An event
 * added to EVENTS (domain/webhooks/events.ts) and not here fails to compile
 * (EVERY_EVENT_HAS_A_SUBJECT), and so does a hook call or a payload builder that gives or reads
 * another shape.
 */
export type EventSubjects = {
  new_checklist: { checklistId: number };
  checklist_completed: { checklistId: number };
  task_completed: { taskId: number };
  file_uploaded: { taskId: number; fieldKey: string; fileId: number };
  comment_created: { commentId: number };
  task_assigned: { taskId: number; assigneeType: string; assigneeId: number };
  'data_set.record.created': { recordId: number };
  // `changes` as the domain computed them, or the values `before` to compare with (outbox.ts).
  'data_set.record.updated': { recordId: number } & ({ changes: RecordChanges } | { before: Record<string, unknown> });
  'data_set.record.deleted': { recordId: number };
};

/** An event the hook takes. */
export type HookEvent = keyof EventSubjects;
