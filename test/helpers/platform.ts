// Test-only operations for the platform tests: a real write (rows in `settings`)
// and a read of the request's time zone, served next to the real operation table
// through EmulatorOptions.ops. Nothing here is part of the emulator.
import { z } from 'zod';
import { CREATE, READ, REMOVE, defineOperation, type Operation } from '../../src/operations/define';
import { operations } from '../../src/operations';
import { conflict } from '../../src/errors';
import { iso } from '../../src/clock';

export const testNote = defineOperation({
  id: 'createTestNote',
  fidelity: { mark: 'designed', source: 'test', designed: 'a test operation' },
  tool: 'create_test_note',
  method: 'POST',
  path: '/v3/test-notes',
  summary: 'Create a test note (test only)',
  input: () => ({
    name: z.string().min(1),
    text: z.string().optional(),
    tags: z.array(z.string()).optional(),
    /** Writes, then refuses: the write must roll back and the key be released. */
    refuse: z.boolean().optional(),
  }),
  budget: 'standard',
  annotations: CREATE,
  status: 201,
  idempotencyArg: true,
  handler: (ctx, input) => {
    const n = (ctx.db.prepare("SELECT COUNT(*) AS n FROM settings WHERE name LIKE 'test-note:%'").get() as { n: number }).n + 1;
    ctx.db.prepare('INSERT INTO settings (name, value) VALUES (?, ?)').run(`test-note:${n}`, JSON.stringify(input));
    if (input.refuse) throw conflict('The test note was refused after writing.');
    // What this request sees of its own idempotency claim (the claim commits before the write runs).
    const claims = ctx.db.prepare("SELECT COUNT(*) AS n FROM idempotency WHERE workspace_id = ? AND state = 'running'").get(ctx.workspace.id) as { n: number };
    return { id: n, name: input.name, text: input.text, createdDateTime: iso(ctx.now()), runningClaimsSeen: claims.n };
  },
});

export const deleteTestNotes = defineOperation({
  id: 'deleteTestNotes',
  fidelity: { mark: 'designed', source: 'test', designed: 'a test operation' },
  tool: 'delete_test_notes',
  method: 'DELETE',
  path: '/v3/test-notes/:name',
  summary: 'Delete test notes (test only)',
  input: () => ({ name: z.string() }),
  budget: 'standard',
  annotations: REMOVE,
  status: 204,
  idempotencyArg: true,
  handler: (ctx) => {
    ctx.db.prepare("DELETE FROM settings WHERE name LIKE 'test-note:%'").run();
  },
});

export const countTestNotes = defineOperation({
  id: 'countTestNotes',
  fidelity: { mark: 'designed', source: 'test', designed: 'a test operation' },
  method: 'GET',
  path: '/v3/test-notes',
  summary: 'Count test notes (test only)',
  input: () => ({}),
  budget: 'standard',
  annotations: READ,
  handler: (ctx) => ({ count: (ctx.db.prepare("SELECT COUNT(*) AS n FROM settings WHERE name LIKE 'test-note:%'").get() as { n: number }).n }),
});

export const testZone = defineOperation({
  id: 'testZone',
  fidelity: { mark: 'designed', source: 'test', designed: 'a test operation' },
  tool: 'test_zone',
  method: 'GET',
  path: '/v3/test-zone',
  summary: 'The time zone of this request (test only)',
  input: () => ({}),
  budget: 'standard',
  annotations: READ,
  handler: (ctx) => ({ timeZone: ctx.timeZone, now: iso(ctx.now()) }),
});

export const testOps: Operation[] = [...operations, testNote, deleteTestNotes, countTestNotes, testZone];

export const HOUR = 3_600_000;
