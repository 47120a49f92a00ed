// Task routes (spec v3 4.3): every row of the table with its MCP tool, the field, file and
// table-row routes, and the same suffixes for standalone tasks under /v3/tasks/{taskKey}
// (EMULATOR.md; no MCP tools: the spec names none). Bodies: docs/tasks.md. One file per area
// of the domain (src/domain/tasks/); each suffix operation is built for both places (where.ts).
import type { Operation } from '../define';
import { activityOperations } from './activity';
import { assigneeOperations } from './assignees';
import { commentOperations } from './comments';
import { dueDateOperations } from './due-dates';
import { fieldOperations } from './fields';
import { fileOperations } from './files';
import { readOperations } from './read';
import { rowOperations } from './table-rows';
import { snoozeOperations } from './snooze';
import { statusOperations } from './status';
import { tagOperations } from './tags';
import type { WhereKind } from './where';

const suffixOperations = (w: WhereKind): Operation[] => [
  ...statusOperations(w),
  ...assigneeOperations(w),
  ...dueDateOperations(w),
  ...commentOperations(w),
  ...snoozeOperations(w),
  ...tagOperations(w),
  ...activityOperations(w),
  ...fieldOperations(w),
  ...fileOperations(w),
  ...rowOperations(w),
];

export const taskOperations: Operation[] = [...readOperations, ...suffixOperations('checklist'), ...suffixOperations('standalone')];
