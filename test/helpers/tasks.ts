// Helpers for the task area's tests: fresh checklists, paths, recorded events, row counts.
import assert from 'node:assert/strict';
import { DEMO, KEYS, type TestServer } from './server';

export const F = {
  employeeName: '22000000-0000-4000-8000-000000000112',
  employeeId: '22000000-0000-4000-8000-000000000101',
  office: '22000000-0000-4000-8000-000000000102',
  employmentType: '22000000-0000-4000-8000-000000000103',
  startDate: '22000000-0000-4000-8000-000000000104',
  signedAgreement: '22000000-0000-4000-8000-000000000105',
  approver: '22000000-0000-4000-8000-000000000106',
  equipment: '22000000-0000-4000-8000-000000000107',
  accounts: '22000000-0000-4000-8000-000000000108',
  accessLog: '22000000-0000-4000-8000-000000000109',
  notes: '22000000-0000-4000-8000-000000000110',
  welcomeText: '22000000-0000-4000-8000-000000000111',
  welcomePage: '22000000-0000-4000-8000-000000000113',
  personalEmail: '22000000-0000-4000-8000-000000000114',
  amount: '22000000-0000-4000-8000-000000000202',
  receipts: '22000000-0000-4000-8000-000000000201',
} as const;

export const T = DEMO.tasks;
export const MISSING = '99999999-0000-4000-8000-000000000000';

/** Starts a fresh checklist (admin key unless told) and returns its key. */
export async function newChecklist(s: TestServer, opts: { template?: string; version?: number; name?: string; key?: string } = {}): Promise<string> {
  const r = await s.api(opts.key ?? KEYS.admin, 'POST', '/v3/checklists', {
    templateKey: opts.template ?? DEMO.onboarding,
    name: opts.name ?? 'Test checklist',
    ...(opts.version ? { version: opts.version } : {}),
  });
  assert.equal(r.status, 201, r.text);
  return r.body.key;
}

export const taskPath = (checklistKey: string, taskKey?: string, suffix = '') =>
  `/v3/checklists/${checklistKey}/tasks${taskKey ? `/${taskKey}` : ''}${suffix}`;

export interface RecordedEvent {
  type: string;
  subject: Record<string, unknown>;
}

/** Records every domain event (the webhooks area's hook, replaced for the test). */
export function recordEvents(s: TestServer): RecordedEvent[] {
  const events: RecordedEvent[] = [];
  s.emu.hooks.event = (_ctx, type, subject) => {
    events.push({ type, subject });
  };
  return events;
}

/** A fingerprint of everything a task write can change, to show a refusal changed nothing. */
export function snapshot(s: TestServer): string {
  const db = s.emu.db;
  const q = (sql: string) => JSON.stringify(db.prepare(sql).all());
  return [
    q('SELECT id, status, completed_at, completed_by, not_applicable_at, due_at, due_is_manual, is_assigned_exclusively FROM tasks ORDER BY id'),
    q('SELECT * FROM task_assignees ORDER BY task_id, assignee_type, assignee_id'),
    q('SELECT * FROM field_values ORDER BY task_id, field_key'),
    q('SELECT id, task_id, field_key, name FROM files ORDER BY id'),
    q('SELECT id, task_id, html, text FROM comments ORDER BY id'),
    q('SELECT * FROM snoozes ORDER BY member_id, task_id'),
    q('SELECT id, action FROM activity ORDER BY id'),
    q('SELECT tag_id, target_type, target_id FROM tag_assignments ORDER BY id'),
    q('SELECT id, name FROM tags ORDER BY id'),
    q('SELECT id, status, completed_at FROM checklists ORDER BY id'),
  ].join('\n');
}

/** Asserts a call is refused with status, code (and field) and changed nothing. */
export async function refused(
  s: TestServer,
  call: () => Promise<{ status: number; body: any }>,
  status: number,
  code: string,
  field?: string,
): Promise<any> {
  const before = snapshot(s);
  const r = await call();
  assert.equal(r.status, status, JSON.stringify(r.body));
  assert.equal(r.body?.error?.code, code, JSON.stringify(r.body));
  if (field !== undefined) assert.equal(r.body.error.field, field, JSON.stringify(r.body));
  assert.equal(snapshot(s), before, 'a refused call changed nothing');
  return r.body;
}
