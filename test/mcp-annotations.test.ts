// MCP tool hints by MCP's own definitions (tools/list annotations), checked for every operation
// of the table: readOnlyHint "the tool does not modify its environment"; destructiveHint false
// "the tool performs only additive updates", so anything that replaces, overwrites or removes is
// destructive; idempotentHint "calling it repeatedly with the same arguments has no additional
// effect". A new operation is checked by the same rules without being listed here.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, KEYS, type TestServer } from './helpers/server';
import type { Operation } from '../src/operations/define';

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(async () => {
  await s.close();
});

/** POSTs that only read: they check or search and write nothing. */
const READING_POSTS: Record<string, string> = {
  validateTemplate: 'checks a document, stores nothing',
  validateTemplateDraft: 'checks the draft, stores nothing',
  searchChecklists: 'a search with a body',
};

/** POSTs that remove or overwrite what was there. */
const DESTRUCTIVE_POSTS: Record<string, string> = {
  archiveTemplate: 'set_template_archived also unarchives (the DELETE of the same path)',
  upgradeChecklists: 'rebuilds checklists on another version; answers that no longer fit are dropped',
  bulkCreateDataSetRecords: 'mode replace deletes every existing record first',
  importDataSetRecords: 'mode replace deletes every existing record first',
  skipScheduleRun: 'cancels a planned run',
  snoozeTasks: "overwrites each task's earlier snooze",
};

const expectedReadOnly = (op: Operation) => op.method === 'GET' || op.id in READING_POSTS;
/** DELETE removes, PUT replaces the whole of what it addresses, PATCH overwrites what it sends (spec v3 4.1 rule 8). */
const expectedDestructive = (op: Operation) => !expectedReadOnly(op) && (op.method === 'DELETE' || op.method === 'PUT' || op.method === 'PATCH' || op.id in DESTRUCTIVE_POSTS);

test('MCP annotations: readOnlyHint iff the operation only reads (GET, or a checking POST); destructiveHint iff it replaces or removes (DELETE, PUT, PATCH, or a named POST)', () => {
  const wrong: string[] = [];
  for (const op of s.emu.ops) {
    const a = op.annotations;
    if (a.readOnlyHint !== expectedReadOnly(op)) wrong.push(`${op.id} (${op.method}): readOnlyHint ${a.readOnlyHint}`);
    if (a.destructiveHint !== expectedDestructive(op)) wrong.push(`${op.id} (${op.method} ${op.path}): destructiveHint ${a.destructiveHint}`);
    // HTTP's idempotent methods are idempotent here too; POST may be either.
    if (op.method !== 'POST' && !a.idempotentHint) wrong.push(`${op.id} (${op.method}): idempotentHint false`);
  }
  assert.deepEqual(wrong, []);
  for (const id of [...Object.keys(READING_POSTS), ...Object.keys(DESTRUCTIVE_POSTS)]) {
    const op = s.emu.ops.find((o) => o.id === id);
    assert.ok(op && op.method === 'POST', `${id} is a POST of the table`);
  }
});

test('MCP annotations: the tools that replace or remove (issue list) say so in tools/list, over HTTP, equal to the table', async () => {
  const c = await s.mcp(KEYS.admin);
  const tools = (await c.listTools()).tools;
  const byName = new Map(tools.map((t) => [t.name, t]));
  for (const name of ['set_task_assignees', 'set_template_permissions', 'update_my_work_view', 'clear_task_assignees', 'clear_task_due_date', 'remove_task_tag', 'uncomplete_task', 'clear_task_not_applicable', 'end_task_snooze', 'set_task_due_date', 'set_task_snooze', 'update_template_draft', 'delete_my_work_view', 'remove_task_comment', 'delete_template_draft']) {
    const t = byName.get(name);
    assert.ok(t, `${name} is listed`);
    assert.equal(t.annotations?.destructiveHint, true, name);
    assert.equal(t.annotations?.readOnlyHint, false, name);
  }
  for (const name of ['add_task_comment', 'add_task_tags', 'complete_task', 'create_template', 'create_my_work_view']) {
    assert.equal(byName.get(name)?.annotations?.destructiveHint, false, `${name} only adds`);
  }
  for (const op of s.emu.ops) {
    if (!op.tool) continue;
    const t = byName.get(op.tool);
    assert.ok(t, `${op.tool} is listed`);
    for (const k of ['readOnlyHint', 'destructiveHint', 'idempotentHint'] as const) assert.equal(t.annotations?.[k], op.annotations[k], `${op.tool} ${k}`);
  }
});
