// The event table of spec v3 6: which scopes each event allows and which payload
// family it has. Legacy subscriptions (legacy spec 4.7) know six of them.
export type ScopeType = 'Template' | 'Task' | 'Workspace' | 'Field';

export interface EventInfo {
  family: 'A' | 'B';
  scopes: readonly ScopeType[];
  legacy: boolean;
}

export const EVENTS = {
  new_checklist: { family: 'A', scopes: ['Template'], legacy: true },
  task_completed: { family: 'A', scopes: ['Task', 'Template', 'Workspace'], legacy: true },
  file_uploaded: { family: 'A', scopes: ['Field'], legacy: true },
  checklist_completed: { family: 'A', scopes: ['Template', 'Workspace'], legacy: false },
  comment_created: { family: 'B', scopes: ['Task', 'Workspace'], legacy: false },
  task_assigned: { family: 'B', scopes: ['Task', 'Template', 'Workspace'], legacy: false },
  'data_set.record.created': { family: 'B', scopes: ['Workspace'], legacy: true },
  'data_set.record.updated': { family: 'B', scopes: ['Workspace'], legacy: true },
  'data_set.record.deleted': { family: 'B', scopes: ['Workspace'], legacy: true },
} as const satisfies Record<string, EventInfo>;

export type EventType = keyof typeof EVENTS;

/** A Data Set record field's value before and after an update (spec v3 6.4 `changes`). */
export type RecordChanges = Record<string, { before: unknown; after: unknown }>;

/**
 * What the domain hands the event hook with each event (ctx.hooks.event), by event: the ids the
 * payload is built from when the event is processed (src/webhooks/payloads/build.ts). An event
 * added to EVENTS and not here fails to compile (EVERY_EVENT_HAS_A_SUBJECT), and so does a hook
 * call or a payload builder that gives or reads another shape.
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

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** Compiles only while EventSubjects names exactly the events of EVENTS. */
export const EVERY_EVENT_HAS_A_SUBJECT: Same<keyof EventSubjects, EventType> = true;
export const EVENT_TYPES = Object.keys(EVENTS) as EventType[];
export const LEGACY_EVENT_TYPES = EVENT_TYPES.filter((e) => EVENTS[e].legacy);
export const isEventType = (s: unknown): s is EventType => typeof s === 'string' && Object.hasOwn(EVENTS, s);
export const SCOPE_TYPES: readonly ScopeType[] = ['Template', 'Task', 'Workspace', 'Field'];

/** The emulator's forward option subscribes to every event with this type. */
export const ALL_EVENTS = '*';
