// Typed events (docs/architecture.md "Adding an event"): the event hook takes the subject of the
// event it names. The @ts-expect-error lines are checked by `npm run typecheck`: a hook call with
// another event's subject, or an event no table lists, does not compile.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Ctx, DomainHooks } from '../src/context';
import { EVENT_TYPES } from '../src/domain/webhooks/events';
import type { EventSubjects } from '../src/event-subjects';

test('spec v3 6: the event hook is typed by event name, and every event of the table has a subject type', () => {
  const seen: [string, unknown][] = [];
  const hook: NonNullable<DomainHooks['event']> = (_ctx, type, subject) => void seen.push([type, subject]);
  const ctx = {} as Ctx;
  hook(ctx, 'task_completed', { taskId: 1 });
  hook(ctx, 'file_uploaded', { taskId: 1, fieldKey: 'f', fileId: 2 });
  // @ts-expect-error task_completed carries a taskId, not a checklistId
  hook(ctx, 'task_completed', { checklistId: 1 });
  // @ts-expect-error no event of that name
  hook(ctx, 'task_deleted', { taskId: 1 });
  assert.equal(seen.length, 4);
  const subjects: Record<keyof EventSubjects, true> = {
    new_checklist: true, checklist_completed: true, task_completed: true, file_uploaded: true, comment_created: true, task_assigned: true,
    'data_set.record.created': true, 'data_set.record.updated': true, 'data_set.record.deleted': true,
  };
  assert.deepEqual(Object.keys(subjects).sort(), [...EVENT_TYPES].sort());
});
