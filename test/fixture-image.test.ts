// A built-in fixture served from its prepared image (src/fixtures/image.ts, docs/performance.md)
// answers exactly as a load of the fixture at the same instant: a start, a reset moved to another
// instant, and an instance at its own instant, each against a server that loaded the fixture.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { Clock } from '../src/clock';
import { openDb, type Db } from '../src/store/open';
import { fixtureImage } from '../src/fixtures/image';
import { startTestServer, DEMO, KEYS, type TestServer } from './helpers/server';

const FIRST = Date.parse('2026-03-04T05:06:07.089Z');
const SECOND = Date.parse('2027-11-12T23:58:01.003Z');
/** What a load draws at random (tag keys): differs between any two loads. */
const RANDOM = new Set(['tags.key', 'tag_assignments.key']);

const frozenAt = (ms: number) => {
  const clock = new Clock();
  clock.set(ms, true);
  return clock;
};

const servers: TestServer[] = [];
after(() => Promise.all(servers.map((s) => s.close())));

/** A server whose database is the image moved to `ms` (the default), or loaded from the fixture (`db: ':memory:'`). */
async function serve(ms: number, load: boolean): Promise<TestServer> {
  const s = await startTestServer({ clock: frozenAt(ms), ...(load ? { db: ':memory:' } : {}) });
  servers.push(s);
  return s;
}

async function exported(base: string): Promise<Db> {
  const r = await fetch(`${base}/_emulator/export`);
  assert.equal(r.status, 200);
  return openDb(undefined, Buffer.from(await r.arrayBuffer()));
}

function rows(db: Db): Map<string, Record<string, unknown>[]> {
  const out = new Map<string, Record<string, unknown>[]>();
  const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all() as { name: string }[];
  for (const { name } of tables) out.set(name, db.prepare(`SELECT * FROM "${name}"`).all() as Record<string, unknown>[]);
  // A counter at 0 (the schema's migrations leave one) counts as no counter: a reset empties them all.
  out.set('sqlite_sequence', db.prepare('SELECT * FROM sqlite_sequence WHERE seq > 0 ORDER BY name').all() as Record<string, unknown>[]);
  return out;
}

/** Every row equal, random cells aside; answers the random cells' values of `a` mapped to those of `b`, to compare answers. */
function assertSameRows(a: Db, b: Db): Map<string, string> {
  const [ra, rb] = [rows(a), rows(b)];
  assert.deepEqual([...ra.keys()], [...rb.keys()]);
  const renames = new Map<string, string>();
  let cells = 0;
  for (const [table, list] of ra) {
    const other = rb.get(table)!;
    assert.equal(list.length, other.length, `${table}: row count`);
    list.forEach((row, i) => {
      for (const [column, value] of Object.entries(row)) {
        if (RANDOM.has(`${table}.${column}`)) {
          if (typeof value === 'string') renames.set(value, other[i][column] as string);
          continue;
        }
        cells++;
        assert.deepEqual(value, other[i][column], `${table}[${i}].${column}`);
      }
    });
  }
  assert.ok(cells > 1000, `compared ${cells} cells`);
  return renames;
}

/** The GET answers a client reads: every path of the contract without parameters, and the demo's own records. */
async function answers(urls: Urls, renames: Map<string, string> = new Map()): Promise<Map<string, string>> {
  const base = urls.US;
  const doc = (await (await fetch(`${base}/v3/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
  const paths = Object.entries(doc.paths)
    .filter(([p, methods]) => 'get' in methods && !p.includes('{'))
    .map(([p]) => p);
  paths.push(
    `/v3/checklists/${DEMO.janeDoe}`,
    `/v3/checklists/${DEMO.janeDoe}/tasks`,
    `/v3/checklists/${DEMO.janeDoe}/tasks/${DEMO.tasks.firstDayWelcome}`,
    `/v3/checklists/${DEMO.expenseMarch}/tasks`,
    `/v3/my-work?assignee=all&status=all&pageSize=100`,
    `/v3/checklists?pageSize=100&status=all`,
    `/v3/templates/${DEMO.onboarding}`,
  );
  const out = new Map<string, string>();
  for (const path of paths) {
    const r = await fetch(base + path, { headers: { 'X-API-KEY': KEYS.admin } });
    let text = await r.text();
    for (const [from, to] of renames) text = text.split(from).join(to);
    // Each server has its own ports; request ids are new on every answer.
    text = text.split(urls.US).join('{US}').split(urls.EU).join('{EU}').replace(/"requestId":"req_[0-9a-f]+"/g, '"requestId":"…"');
    out.set(path, `${r.status} ${text}`);
  }
  assert.ok([...out.values()].filter((t) => t.startsWith('200 ')).length >= 10, 'at least ten answers read');
  return out;
}

type Urls = { US: string; EU: string };

async function assertSameAnswers(image: Urls, load: Urls): Promise<void> {
  const [a, b] = [await exported(image.US), await exported(load.US)];
  try {
    const renames = assertSameRows(a, b);
    assert.deepEqual(await answers(image, renames), await answers(load));
  } finally {
    a.close();
    b.close();
  }
}

test('a start from the demo image has the rows and answers of a start that loads the fixture, at two instants', async () => {
  // From source the image is made on first need (the build embeds it): made here, so the starts below open it.
  assert.ok(fixtureImage('demo'), 'the demo fixture has an image');
  for (const ms of [FIRST, SECOND]) {
    const [image, load] = [await serve(ms, false), await serve(ms, true)];
    await assertSameAnswers(image.urls, load.urls);
  }
});

test('POST /_emulator/reset at one instant, then at another, has the rows and answers of a load at the second instant', async () => {
  const s = await serve(FIRST, false);
  const reset = async () => assert.equal((await fetch(`${s.us}/_emulator/reset`, { method: 'POST' })).status, 200);
  const complete = await s.api(KEYS.admin, 'POST', `/v3/checklists/${DEMO.janeDoe}/tasks/${DEMO.tasks.managerApproval}/complete`);
  assert.equal(complete.status, 200);
  await reset(); // loads the fixture and keeps its rows
  await reset(); // copies them back
  const moved = await fetch(`${s.us}/_emulator/clock`, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ now: new Date(SECOND).toISOString(), frozen: true }) });
  assert.equal(moved.status, 200);
  assert.equal((await s.api(KEYS.admin, 'POST', `/v3/checklists/${DEMO.janeDoe}/tasks/${DEMO.tasks.managerApproval}/complete`)).status, 200);
  // Rows a reset must take away in every layer of references: a new checklist with its tasks, a
  // comment with a file on one of them, a tag and its assignment (children go before parents).
  const made = await s.api(KEYS.admin, 'POST', '/v3/checklists', { templateKey: DEMO.onboarding, name: 'Reset me' });
  assert.equal(made.status, 201);
  const { key } = made.body as { key: string };
  const { tasks } = (await s.api(KEYS.admin, 'GET', `/v3/checklists/${key}/tasks`)).body as { tasks: { key: string; isHeading: boolean }[] };
  const attachment = { name: 'a.txt', contentType: 'text/plain', data: Buffer.from('a').toString('base64') };
  const comment = await s.api(KEYS.admin, 'POST', `/v3/checklists/${key}/tasks/${tasks.find((t) => !t.isHeading)!.key}/comments`, { text: 'gone after the reset', attachment });
  assert.equal(comment.status, 201, JSON.stringify(comment.body));
  assert.equal((await s.api(KEYS.admin, 'POST', `/v3/checklists/${key}/tags`, { tags: ['reset-me'] })).status, 200);
  await reset(); // copies them back, moved to the second instant
  await assertSameAnswers(s.urls, (await serve(SECOND, true)).urls);
});

test('an instance at its own frozen instant has the rows and answers of a load at that instant', async () => {
  const s = await serve(FIRST, false);
  const made = await fetch(`${s.us}/_emulator/instances`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ clock: { now: new Date(SECOND).toISOString(), frozen: true } }) });
  assert.equal(made.status, 201);
  const instance = (await made.json()) as { id: string; baseUrls: Urls };
  try {
    await assertSameAnswers(instance.baseUrls, (await serve(SECOND, true)).urls);
  } finally {
    await fetch(`${s.us}/_emulator/instances/${instance.id}`, { method: 'DELETE' });
  }
});
