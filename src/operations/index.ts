// The operation table: every v3 operation, declared once. REST routes, MCP tools
// and the OpenAPI document are generated from this list. Add an area's file here.
import type { Operation } from './define';
import { peopleOperations } from './people';
import { templateOperations } from './templates';
import { draftOperations } from './drafts';
import { schemaOperations } from './template-format';
import { webhookOperations } from './webhooks';
import { checklistOperations } from './checklists';
import { standaloneOperations } from './standalone';
import { taskOperations } from './tasks';
import { upgradeOperations } from './upgrades';
import { scheduleOperations } from './schedules';
import { dataSetOperations } from './data-sets';
import { myWorkOperations } from './my-work';

export const operations: Operation[] = [
  ...peopleOperations,
  ...templateOperations,
  ...upgradeOperations,
  ...draftOperations,
  ...schemaOperations,
  ...checklistOperations,
  ...standaloneOperations,
  ...taskOperations,
  ...myWorkOperations,
  ...webhookOperations,
  ...scheduleOperations,
  ...dataSetOperations,
];

const ids = new Set<string>();
const tools = new Set<string>();
for (const op of operations) {
  if (ids.has(op.id)) throw new Error(`duplicate operation id ${op.id}`);
  if (op.actor === 'admin' && !op.adminRefusal) throw new Error(`${op.id}: actor 'admin' needs its adminRefusal text`);
  ids.add(op.id);
  if (op.tool) {
    if (tools.has(op.tool)) throw new Error(`duplicate tool ${op.tool}`);
    tools.add(op.tool);
  }
}

// The built-in table never changes: src/prebuilt.ts serves what the build made from it to any
// emulator whose `ops` is this very array (a test's own table is another array).
Object.freeze(operations);
