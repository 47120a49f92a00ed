// The event table of spec v3 6: which scopes each event allows and which payload
// family it has. Legacy subscriptions (legacy spec 4.7) know six of them.
import type { EventSubjects } from '../../event-subjects';

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

export type { EventSubjects, RecordChanges } from '../../event-subjects';

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** Compiles only while EventSubjects (src/event-subjects.ts) names exactly the events of EVENTS. */
export const EVERY_EVENT_HAS_A_SUBJECT: Same<keyof EventSubjects, EventType> = true;
export const EVENT_TYPES = Object.keys(EVENTS) as EventType[];
export const LEGACY_EVENT_TYPES = EVENT_TYPES.filter((e) => EVENTS[e].legacy);
export const isEventType = (s: unknown): s is EventType => typeof s === 'string' && Object.hasOwn(EVENTS, s);
export const SCOPE_TYPES: readonly ScopeType[] = ['Template', 'Task', 'Workspace', 'Field'];

/** The emulator's forward option subscribes to every event with this type. */
export const ALL_EVENTS = '*';
