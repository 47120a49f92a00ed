// The activity of one task (spec v3 4.3 get_task_activity): newest first, paged (4.1 rule 11).
import type { Operation } from '../define';
import { READ } from '../define';
import { cursor, pageSizeStrict } from '../input-kinds';
import { activityPage } from '../shapes/tasks';
import { taskActivity } from '../../domain/tasks/feed';
import { taskOperation, whereText, type WhereKind } from './where';

export const activityOperations = (w: WhereKind): Operation[] => [
  taskOperation(w, {
    id: 'getTaskActivity',
    tool: 'get_task_activity',
    method: 'GET',
    suffix: '/activity',
    summary: `Activity of ${whereText(w)}`,
    description: 'Who did what and when, newest first; paged (after, pageSize). A cursor is valid only with the same pageSize.',
    input: () => ({
      after: cursor().describe('The previous page\'s nextCursor'),
      pageSize: pageSizeStrict().describe('1 to 100, default 50'),
    }),
    query: ['after', 'pageSize'],
    output: activityPage,
    refusals: ['403 FORBIDDEN'],
    annotations: READ,
    handler: (ctx, input, t) => taskActivity(ctx, t(), input),
  }),
];
