// Crash safety (docs/reliability.md): a write load through REST against a real
// `wfe serve --db FILE` process, SIGKILLed at random points and restarted.
// After every restart: PRAGMA integrity_check is ok, every write the client saw
// acknowledged is there, nothing is half-applied, and webhook deliveries that
// were pending (or in flight) when the process died are sent after it restarts.
// CRASH_KILLS=100 for the full run; CRASH_SEED picks another reproducible run.
// test:slow: SIGKILLs and restarts a `wfe serve` child process under a write load.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Emulator } from '../src/emulator';
import { recordEvent } from '../src/domain/webhooks/outbox';
import { DEMO, KEYS } from './helpers/server';
import { smallDoc } from './helpers/templates';
import { ctxFor, startReceiver, waitUntil, type Receiver } from './helpers/webhooks';
import { freePort, kill, startChild, type Child } from './helpers/crash';
import { Rng } from './fuzz/rng';
import { operations } from '../src/operations';

const KILLS = Number(process.env.CRASH_KILLS ?? 10);
const SEED = Number(process.env.CRASH_SEED ?? 11);
const WORKERS = 4;

const has = (method: string, path: string) => operations.some((o) => o.method === method && o.path === path);

interface Acked {
  templates: Map<string, number>; // key -> highest acknowledged version
  checklists: Set<string>;
  /** checklistKey/taskKey -> the state of the last acknowledged complete/uncomplete, unless a later one was unanswered. */
  tasks: Map<string, { state: 'Complete' | 'Incomplete'; uncertain: boolean }>;
  events: number;
}

const dir = mkdtempSync(join(tmpdir(), 'wfe-crash-'));
after(() => rmSync(dir, { recursive: true, force: true }));

async function post(base: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: any } | undefined> {
  try {
    const res = await fetch(base + path, {
      method,
      headers: { 'X-API-KEY': KEYS.admin, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  } catch {
    return undefined; // the process died while we waited: not acknowledged
  }
}

/** One client: writes until `stop()` says so, recording what was acknowledged. */
async function worker(rng: Rng, base: string, acked: Acked, stop: () => boolean, tag: string): Promise<void> {
  let n = 0;
  while (!stop()) {
    n++;
    const templates = [...acked.templates.keys()];
    const checklists = [...acked.checklists];
    const choice = rng.weighted<string>([
      [3, 'createTemplate'],
      [templates.length ? 4 : 0, 'publish'],
      [has('POST', '/v3/checklists') ? 3 : 0, 'createChecklist'],
      [checklists.length && has('POST', '/v3/checklists/:checklistKey/tasks/:taskKey/complete') ? 6 : 0, 'toggle'],
    ]);
    if (choice === 'createTemplate') {
      const r = await post(base, 'POST', '/v3/templates', smallDoc(`crash ${tag} ${n}`));
      if (r?.status === 201) acked.templates.set(r.body.key, Math.max(acked.templates.get(r.body.key) ?? 0, 1));
      else if (r && r.status !== 201) throw new Error(`create template answered ${r.status}: ${JSON.stringify(r.body)}`);
    } else if (choice === 'publish') {
      const key = rng.pick(templates);
      const r = await post(base, 'POST', `/v3/templates/${key}/versions`, smallDoc(`crash ${tag} ${n} v`));
      if (r?.status === 201) acked.templates.set(key, Math.max(acked.templates.get(key) ?? 0, r.body.version));
    } else if (choice === 'createChecklist') {
      const r = await post(base, 'POST', '/v3/checklists', { templateKey: DEMO.expense, name: `crash ${tag} ${n}` });
      if (r?.status === 201) acked.checklists.add(r.body.key);
    } else if (choice === 'toggle') {
      const cl = rng.pick(checklists);
      const task = rng.pick([DEMO.tasks.submitReceipts, '21000000-0000-4000-8000-000000000202', '21000000-0000-4000-8000-000000000203']);
      const id = `${cl}/${task}`;
      const complete = rng.chance(0.5);
      const r = await post(base, complete ? 'POST' : 'DELETE', `/v3/checklists/${cl}/tasks/${task}/complete`);
      if (r && r.status < 300) acked.tasks.set(id, { state: complete ? 'Complete' : 'Incomplete', uncertain: false });
      else if (!r) acked.tasks.set(id, { state: acked.tasks.get(id)?.state ?? 'Incomplete', uncertain: true });
    }
  }
}

/** Writes outbox events from a second connection, as a route's transaction would (spec v3 6). */
function writeEvents(emu: Emulator, acked: Acked, n: number): void {
  const ctx = ctxFor(emu, KEYS.admin);
  // A completed task of the complete "Expense Report: March" (an event about a task no longer complete is dropped, docs/webhooks.md).
  const taskId = (emu.db.prepare("SELECT t.id FROM tasks t JOIN checklists c ON c.id = t.checklist_id WHERE c.key = ? AND t.status = 'Complete' ORDER BY t.position LIMIT 1").get(DEMO.expenseMarch) as { id: number }).id;
  for (let i = 0; i < n; i++) {
    emu.db.transaction(() => recordEvent(ctx, 'task_completed', { taskId }, ctx.now()))();
    acked.events++;
  }
}

function verify(emu: Emulator, acked: Acked, startedAt: number, round: number): void {
  const db = emu.db;
  const where = `after kill ${round}`;
  assert.equal(db.pragma('integrity_check', { simple: true }), 'ok', `integrity_check ${where}`);
  assert.deepEqual(db.pragma('foreign_key_check'), [], `foreign_key_check ${where}`);
  for (const [key, version] of acked.templates) {
    const t = db.prepare('SELECT id, latest_version FROM templates WHERE key = ?').get(key) as { id: number; latest_version: number } | undefined;
    assert.ok(t, `acknowledged template ${key} is missing ${where}`);
    assert.ok(t.latest_version >= version, `template ${key}: acknowledged version ${version}, found latest ${t.latest_version} ${where}`);
  }
  // No template whose latest version has no row, no gap in its versions.
  const broken = db
    .prepare(
      `SELECT t.key, t.latest_version, COUNT(v.version) AS n, MAX(v.version) AS top FROM templates t
       LEFT JOIN template_versions v ON v.template_id = t.id WHERE t.created_at >= ? GROUP BY t.id
       HAVING n <> t.latest_version OR top IS NOT t.latest_version`,
    )
    .all(startedAt);
  assert.deepEqual(broken, [], `half-applied template versions ${where}`);
  for (const key of acked.checklists) {
    const c = db.prepare('SELECT id FROM checklists WHERE key = ?').get(key) as { id: number } | undefined;
    assert.ok(c, `acknowledged checklist ${key} is missing ${where}`);
    const n = (db.prepare('SELECT COUNT(*) AS n FROM tasks WHERE checklist_id = ?').get(c.id) as { n: number }).n;
    assert.ok(n > 0, `checklist ${key} has no tasks ${where}`);
    const ev = db.prepare("SELECT COUNT(*) AS n FROM events WHERE event_type = 'new_checklist' AND json_extract(subject, '$.checklistId') = ?").get(c.id) as { n: number };
    assert.ok(ev.n >= 1, `checklist ${key} has no new_checklist event ${where}`);
  }
  for (const [id, want] of acked.tasks) {
    if (want.uncertain) continue;
    const [cl, task] = id.split('/');
    const row = db.prepare('SELECT t.status FROM tasks t JOIN checklists c ON c.id = t.checklist_id WHERE c.key = ? AND t.key = ?').get(cl, task) as { status: string } | undefined;
    assert.equal(row?.status ?? 'Incomplete', want.state, `task ${id}: the last acknowledged write set ${want.state} ${where}`);
  }
  // A task completed during the run has its activity entry and its outbox event.
  const completed = db.prepare("SELECT id FROM tasks WHERE status = 'Complete' AND completed_at >= ?").all(startedAt) as { id: number }[];
  for (const { id } of completed) {
    const act = db.prepare('SELECT COUNT(*) AS n FROM activity WHERE task_id = ?').get(id) as { n: number };
    assert.ok(act.n >= 1, `completed task ${id} has no activity entry ${where}`);
    const ev = db.prepare("SELECT COUNT(*) AS n FROM events WHERE event_type = 'task_completed' AND json_extract(subject, '$.taskId') = ?").get(id) as { n: number };
    assert.ok(ev.n >= 1, `completed task ${id} has no task_completed event ${where}`);
  }
  const events = (db.prepare("SELECT COUNT(*) AS n FROM events WHERE event_type = 'task_completed' AND created_at >= ?").get(startedAt) as { n: number }).n;
  assert.ok(events >= acked.events, `${acked.events} events written, ${events} found ${where}`);
}

test(`crash safety: ${KILLS} SIGKILLs under a write load, restart, nothing lost or half-applied, deliveries resume`, { timeout: 30 * 60_000 }, async () => {
  const rng = new Rng(SEED);
  const file = join(dir, 'crash.sqlite');
  const [portUs, portEu] = [await freePort(), await freePort()];
  const receiver: Receiver = await startReceiver();
  // While the load runs, the receiver never answers: deliveries are in flight when the process dies.
  receiver.fallback = 'hang';
  let child: Child = await startChild(file, portUs, portEu);
  const startedAt = Date.now() - 1000;
  const sub = await post(child.us, 'POST', '/v3/webhooks', { eventType: 'task_completed', targetUrl: receiver.url, scope: { type: 'Workspace' } });
  assert.equal(sub?.status, 201);
  const emu = new Emulator({ db: file, fixture: 'none', log: () => {} });
  const acked: Acked = { templates: new Map(), checklists: new Set(), tasks: new Map(), events: 0 };
  let lostWrites = 0;
  try {
    for (let round = 1; round <= KILLS; round++) {
      let stopped = false;
      const workers = Array.from({ length: WORKERS }, (_, w) => worker(new Rng(SEED * 1000 + round * 10 + w), child.us, acked, () => stopped, `${round}.${w}`));
      writeEvents(emu, acked, rng.int(1, 3));
      await new Promise((r) => setTimeout(r, rng.int(50, 600)));
      await kill(child);
      stopped = true;
      await Promise.all(workers);
      child = await startChild(file, portUs, portEu);
      try {
        verify(emu, acked, startedAt, round);
      } catch (e) {
        lostWrites++;
        throw e;
      }
    }
    // Deliveries resume: the receiver now answers, and every delivery ends delivered.
    receiver.fallback = { status: 200 };
    await kill(child); // the last crash: deliveries stuck on the hanging receiver are sent on the next start
    child = await startChild(file, portUs, portEu);
    const total = () => (emu.db.prepare("SELECT COUNT(*) AS n FROM deliveries WHERE created_at >= ?").get(startedAt) as { n: number }).n;
    assert.ok(total() >= acked.events, 'every event written has its delivery');
    // Delivered, or dropped by the documented rule (a task_completed event whose task was uncompleted
    // before the event was processed, docs/webhooks.md); never left pending, never failed.
    await waitUntil(() => (emu.db.prepare("SELECT COUNT(*) AS n FROM deliveries WHERE status NOT IN ('delivered', 'dropped') AND created_at >= ?").get(startedAt) as { n: number }).n === 0, 60_000, 'every delivery delivered after the restarts').catch((e) => {
      throw new Error(`${e.message}: ${JSON.stringify(emu.db.prepare("SELECT d.id, d.status, d.attempts, d.next_attempt_at, d.last_error, e.state, e.drop_reason FROM deliveries d JOIN events e ON e.id = d.event_id").all())} received ${receiver.received.length}`);
    });
    const bodies = new Set(receiver.received.map((r) => r.body));
    const dropped = emu.db.prepare("SELECT e.drop_reason AS reason FROM deliveries d JOIN events e ON e.id = d.event_id WHERE d.status = 'dropped' AND d.created_at >= ?").all(startedAt) as { reason: string | null }[];
    for (const d of dropped) assert.match(d.reason ?? '', /no longer complete/, 'only the documented drop rule drops a delivery');
    const sent = emu.db.prepare("SELECT DISTINCT e.body FROM deliveries d JOIN events e ON e.id = d.event_id WHERE d.status = 'delivered' AND d.created_at >= ?").all(startedAt) as { body: string }[];
    for (const { body } of sent) assert.ok(bodies.has(body), 'the receiver got every event');
    assert.equal(lostWrites, 0);
    process.stderr.write(
      `crash: ${KILLS} kills, ${acked.templates.size} templates (${[...acked.templates.values()].reduce((a, b) => a + b, 0)} versions), ${acked.checklists.size} checklists, ${acked.tasks.size} tasks toggled, ${acked.events} events, ${total()} deliveries (${dropped.length} dropped by the uncompleted-task rule), none lost\n`,
    );
  } finally {
    await kill(child).catch(() => {});
    await emu.close();
    await receiver.close();
  }
});
