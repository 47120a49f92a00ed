// Snoozing one task (spec v3 3, 4.3): personal to the member the key acts as, records no activity.
// The workspace key is refused by the domain after the task is looked up, not by `actor:
// 'member'` before it: 5.10 looks the resource up first (another workspace's task is 404, a
// malformed key 400), and 5.8 lists API_KEY_ACTS_AS_WORKSPACE as a snooze refusal beside them.
import type { Operation } from '../define';
import { REPLACE } from '../define';
import { snooze } from '../shapes/tasks';
import { endSnooze, getSnooze, setSnooze } from '../../domain/tasks/snooze';
import { instant } from '../input-kinds';
import { taskClear, taskOperation, taskRead, whereText, type WhereKind } from './where';

export const snoozeOperations = (w: WhereKind): Operation[] => [
  taskRead(w, {
    id: 'getTaskSnooze',
    tool: 'get_task_snooze',
    suffix: '/snooze',
    summary: `Read your snooze of ${whereText(w)}`,
    description: 'Personal to the member the key acts as (a workspace key is refused). Returns {isSnoozed, snoozedUntil}.',
    output: snooze,
    refusals: ['403 API_KEY_ACTS_AS_WORKSPACE'],
    run: getSnooze,
  }),
  taskOperation(w, {
    id: 'setTaskSnooze',
    tool: 'set_task_snooze',
    method: 'PUT',
    suffix: '/snooze',
    summary: `Snooze ${whereText(w)}`,
    description: 'Hidden from the member\'s Tasks grid until a date. Body {snoozedUntil} (in the future). Personal; records no activity. Returns {isSnoozed, snoozedUntil}.',
    input: () => ({ snoozedUntil: instant().describe('Until when: ISO 8601, in the future; Z = UTC, an offset is honoured, no offset = UTC') }),
    output: snooze,
    refusals: ['403 API_KEY_ACTS_AS_WORKSPACE', '403 FORBIDDEN'],
    annotations: REPLACE,
    handler: (ctx, input, t) => setSnooze(ctx, t(), input.snoozedUntil),
  }),
  taskClear(w, {
    id: 'endTaskSnooze',
    tool: 'end_task_snooze',
    suffix: '/snooze',
    summary: `End your snooze of ${whereText(w)}`,
    description: 'Harmless when not snoozed. Returns {isSnoozed}.',
    output: snooze,
    refusals: ['403 API_KEY_ACTS_AS_WORKSPACE'],
    run: endSnooze,
  }),
];
