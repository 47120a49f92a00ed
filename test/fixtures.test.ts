// Your own fixtures (issue 16 item 3, docs/fixtures.md): init, edit, load, reset,
// the JSON Schema, relative dates, and the refusals (nothing half-loaded).
// test:slow: most tests run `wfe fixture ...` and `wfe serve --fixture` as child processes.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator, FixtureError } from '../src/library';
import { openDb } from '../src/store/open';
import { fromSource, PATIENCE_MS, ROOT } from './helpers/server';
import { bannerOf } from './helpers/spine';

const dir = mkdtempSync(join(tmpdir(), 'wfe-fixtures-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const cli = (args: string[]) => spawnSync(process.execPath, fromSource(args), { cwd: dir, encoding: 'utf8', env: { ...process.env, WFE_CLI: '1' }, timeout: PATIENCE_MS });

const WS = '10000000-0000-4000-8000-0000000000aa';
const TEMPLATE = '20000000-0000-4000-8000-0000000000aa';
const vendorDoc = () => JSON.parse(readFileSync(join(ROOT, 'fixtures/demo/templates/vendor-review.json'), 'utf8'));

/** A small fixture as an object (the library's `fixture` option). */
function mini() {
  return {
    name: 'mini',
    workspaces: [
      {
        id: 7,
        key: WS,
        name: 'Mini Co',
        region: 'US',
        anonymousMember: { id: 700, firstName: 'Mini', lastName: 'Workspace' },
        members: [
          { id: 701, firstName: 'Max', lastName: 'Mini', email: 'max@mini.test', role: 'Administrator', rights: ['Checklist.Creator', 'Task.Creator'] },
          { id: 702, firstName: 'Moe', lastName: 'Mini', email: 'moe@mini.test', role: 'Member' },
          { id: 703, firstName: 'Gone', lastName: 'Mini', email: 'gone@mini.test', role: 'Member', isActive: false },
          { id: 704, firstName: 'Four', email: 'four@mini.test', role: 'Member' },
        ],
        groups: [{ id: 750, name: 'Team', members: [701, 702] }],
        keys: [
          { key: 'mini-admin-key', name: 'Max key', member: 701 },
          { key: 'mini-soon-key', name: 'Expires in two days', member: 702, expiresOn: '+2d' },
          { key: 'mini-old-key', name: 'Revoked', member: 701, state: 'revoked' },
          { key: 'mini-gone-key', name: 'Gone', member: 703 },
        ],
        templates: [{ key: TEMPLATE, createdBy: 701, versions: [vendorDoc()], permissions: [{ assigneeType: 'AllUsers', permission: 'RunAndView' }] }],
        checklists: [
          {
            key: '30000000-0000-4000-8000-0000000000aa',
            name: 'Vendor: Initech',
            template: TEMPLATE,
            createdBy: 701,
            startedAt: '-3d',
            tasks: { '21000000-0000-4000-8000-000000000301': { assignees: [{ type: 'TeamMember', id: 702 }], fields: { '22000000-0000-4000-8000-000000000301': 'Initech' } } },
          },
        ],
        standaloneTasks: [{ key: '40000000-0000-4000-8000-0000000000aa', name: 'Call Initech', raisedBy: 701, dueAt: '+2d', assignees: [{ type: 'Group', id: 750 }] }],
        webhooks: [{ key: '60000000-0000-4000-8000-0000000000aa', event: 'task_completed', targetUrl: 'http://127.0.0.1:9/hook', createdBy: 701 }],
      },
    ],
    keys: [{ key: 'mini-workspace-key', name: 'Automation', workspace: WS }],
  };
}

async function refused(fixture: unknown, pattern: RegExp) {
  await assert.rejects(startEmulator({ listen: false, fixture: fixture as Record<string, unknown> }), (e: Error) => {
    assert.ok(e instanceof FixtureError, String(e));
    assert.match(e.message, pattern);
    return true;
  });
}

test('16.3 fixtures: an object fixture loads: members, groups, keys with states, templates, checklists with answers, tasks, webhooks, relative dates', async () => {
  await using emu = await startEmulator({ listen: false, fixture: mini(), clock: { start: '2031-03-10T12:00:00Z', frozen: true } });
  const H = { 'X-API-KEY': 'mini-admin-key' };
  assert.equal((await (await emu.fetch('/v3/auth/test', { headers: H })).json()).teamName, 'Mini Co');
  assert.deepEqual(
    emu.keys.map((k) => [k.key, k.state, k.expiresOn]),
    [
      ['mini-admin-key', 'active', undefined],
      ['mini-soon-key', 'active', '2031-03-12'],
      ['mini-old-key', 'revoked', undefined],
      ['mini-gone-key', 'unavailable', undefined],
      ['mini-workspace-key', 'active', undefined],
    ],
  );
  assert.equal((await emu.fetch('/v3/auth/test', { headers: { 'X-API-KEY': 'mini-old-key' } })).status, 401);
  assert.equal((await (await emu.fetch('/v3/auth/test', { headers: { 'X-API-KEY': 'mini-gone-key' } })).json()).error.code, 'API_KEY_ACTOR_UNAVAILABLE');
  assert.equal((await emu.fetch('/v3/auth/test', { headers: { 'X-API-KEY': 'mini-workspace-key' } })).status, 200);
  emu.clock.advance({ days: 3 });
  assert.equal((await (await emu.fetch('/v3/auth/test', { headers: { 'X-API-KEY': 'mini-soon-key' } })).json()).error.code, 'API_KEY_EXPIRED');
  const group = await (await emu.fetch('/v3/groups/750', { headers: H })).json();
  assert.equal(group.name, 'Team');
  const checklist = await (await emu.fetch('/v3/checklists/30000000-0000-4000-8000-0000000000aa', { headers: H })).json();
  assert.equal(checklist.createdDateTime.slice(0, 10), '2031-03-07');
  const task = await (await emu.fetch('/v3/tasks/40000000-0000-4000-8000-0000000000aa', { headers: H })).json();
  assert.equal(task.dueDateTime?.slice(0, 10), '2031-03-12', JSON.stringify(task));
  const hooks = await (await emu.fetch('/v3/webhooks', { headers: H })).json();
  assert.ok(JSON.stringify(hooks).includes('60000000-0000-4000-8000-0000000000aa'), JSON.stringify(hooks));
});

test('16.3 fixtures: refusals name the path and the reason, and nothing is loaded', async () => {
  const m = () => mini();
  let fx: ReturnType<typeof mini>;
  fx = m();
  fx.workspaces[0].members[3].email = 'not-an-email';
  await refused(fx, /workspaces\[0\]\.members\[3\]\.email: not an email address/);
  fx = m();
  fx.workspaces[0].groups[0].members.push(799);
  await refused(fx, /workspaces\[0\]\.groups\[0\]\.members\[2\]: names no member of workspace Mini Co/);
  fx = m();
  fx.workspaces[0].keys.push({ key: 'mini-admin-key', name: 'Again', member: 701 });
  await refused(fx, /workspaces\[0\]\.keys\[4\]\.key: duplicate API key mini-admin-key \(also at workspaces\[0\]\.keys\[0\]\.key\)/);
  fx = m();
  fx.keys[0].workspace = '10000000-0000-4000-8000-0000000000ff';
  await refused(fx, /keys\[0\]\.workspace: names no workspace of the fixture/);
  fx = m();
  fx.workspaces[0].standaloneTasks[0].dueAt = '+2x';
  await refused(fx, /workspaces\[0\]\.standaloneTasks\[0\]\.dueAt: not a valid date/);
  fx = m();
  fx.workspaces[0].keys[1].expiresOn = '2031-02-30';
  await refused(fx, /workspaces\[0\]\.keys\[1\]\.expiresOn: not a valid date/);
  fx = m();
  const bad = vendorDoc();
  bad.tasks[0].fields[0].type = 'NoSuchType';
  fx.workspaces[0].templates[0].versions = [bad];
  await refused(fx, /workspaces\[0\]\.templates\[0\]\.versions\[0\] \$\.tasks\[0\]\.fields\[0\]/);
  fx = m();
  (fx.workspaces[0].members[0] as Record<string, unknown>).nickname = 'Maxi';
  await refused(fx, /workspaces\[0\]\.members\[0\]: unknown property nickname/);
  fx = m();
  fx.workspaces[0].checklists[0].template = '20000000-0000-4000-8000-0000000000ff';
  await refused(fx, /workspaces\[0\]\.checklists\[0\]\.template: names no template/);
  fx = m();
  (fx.workspaces[0] as Record<string, unknown>).region = 'APAC';
  await refused(fx, /workspaces\[0\]\.region: must be US or EU/);

  // Nothing half-loaded: a template refused late leaves a new database file empty.
  const file = join(dir, 'half.sqlite');
  fx = m();
  const late = vendorDoc();
  late.tasks[0].fields[0].type = 'NoSuchType';
  fx.workspaces[0].templates[0].versions = [late];
  await assert.rejects(startEmulator({ listen: false, db: file, fixture: fx }), FixtureError);
  const db = openDb(file);
  try {
    assert.equal((db.prepare('SELECT COUNT(*) AS n FROM workspaces').get() as { n: number }).n, 0);
    assert.equal((db.prepare('SELECT COUNT(*) AS n FROM members').get() as { n: number }).n, 0);
  } finally {
    db.close();
  }
});

test('16.3 fixtures: round trip: wfe fixture init, edit, load with --fixture and the library, reset reloads it, a broken edit is refused by reset', async () => {
  const fxDir = join(dir, 'mine');
  const init = cli(['fixture', 'init', fxDir]);
  assert.equal(init.status, 0, init.stderr);
  assert.ok(existsSync(join(fxDir, 'fixture.json')) && existsSync(join(fxDir, 'templates', 'vendor-review.json')) && existsSync(join(fxDir, 'fixture.schema.json')));
  assert.notEqual(cli(['fixture', 'init', fxDir]).status, 0, 'init refuses a directory that holds a fixture');

  const file = join(fxDir, 'fixture.json');
  const doc = JSON.parse(readFileSync(file, 'utf8'));
  doc.workspaces[0].members.push({ id: 150, firstName: 'Nia', lastName: 'New', email: 'nia@acme.test', role: 'Member' });
  doc.workspaces[0].keys.push({ key: 'nia-key-123', name: "Nia's key", member: 150, expiresOn: '+30d' });
  writeFileSync(file, JSON.stringify(doc, null, 2));

  const check = cli(['fixture', 'check', fxDir]);
  assert.equal(check.status, 0, check.stderr);
  assert.match(check.stdout, /nia-key-123/);

  await using emu = await startEmulator({ fixture: fxDir });
  const H = { 'X-API-KEY': 'nia-key-123' };
  assert.equal((await (await emu.fetch('/v3/members/150', { headers: H })).json()).email, 'nia@acme.test');
  // Change data, then reset: the fixture comes back.
  assert.equal((await emu.fetch('/v3/checklists/30000000-0000-4000-8000-000000000001', { method: 'DELETE', headers: { 'X-API-KEY': 'acme-admin-key' } })).status, 204);
  // Edit the fixture on disk: reset reads it again.
  doc.workspaces[0].members.push({ id: 151, firstName: 'Ola', lastName: 'Other', email: 'ola@acme.test', role: 'Member' });
  writeFileSync(file, JSON.stringify(doc, null, 2));
  const reset = await fetch(`${emu.urls.US}/_emulator/reset`, { method: 'POST' });
  assert.equal(reset.status, 200);
  assert.equal((await reset.json()).fixture, fxDir);
  assert.equal((await emu.fetch('/v3/checklists/30000000-0000-4000-8000-000000000001', { headers: { 'X-API-KEY': 'acme-admin-key' } })).status, 200);
  assert.equal((await emu.fetch('/v3/members/151', { headers: H })).status, 200);
  // A broken edit: reset is refused and the data stays.
  doc.workspaces[0].groups[0].members.push(999);
  writeFileSync(file, JSON.stringify(doc, null, 2));
  const refusedReset = await fetch(`${emu.urls.US}/_emulator/reset`, { method: 'POST' });
  assert.equal(refusedReset.status, 409);
  const body = await refusedReset.json();
  assert.match(body.error.message, /workspaces\[0\]\.groups\[0\]\.members\[\d+\]: names no member/);
  assert.equal(body.error.issues[0].path.startsWith('workspaces[0].groups[0].members'), true);
  await assert.rejects(emu.reset(), FixtureError);
  assert.equal((await emu.fetch('/v3/members/151', { headers: H })).status, 200);

  // wfe serve --fixture ./dir refuses the broken fixture with the path and exit code 1.
  const served = cli(['serve', '--fixture', fxDir, '--port-us', '0', '--port-eu', '0']);
  assert.equal(served.status, 1);
  assert.match(served.stderr, /Invalid fixture .*groups\[0\]\.members/);
});

test('16.3 fixtures: wfe serve --fixture ./dir runs it and prints its keys', async () => {
  const fxDir = join(dir, 'served');
  assert.equal(cli(['fixture', 'init', fxDir]).status, 0);
  const doc = JSON.parse(readFileSync(join(fxDir, 'fixture.json'), 'utf8'));
  doc.workspaces[0].keys.push({ key: 'served-key-1', name: 'Served', member: 101 });
  writeFileSync(join(fxDir, 'fixture.json'), JSON.stringify(doc));
  const child = spawn(process.execPath, fromSource(['serve', '--fixture', './served', '--port-us', '0', '--port-eu', '0']), { cwd: dir, env: { ...process.env, WFE_CLI: '1' } });
  try {
    const banner = await bannerOf(child);
    assert.match(banner, /served-key-1/);
    const us = /US\s+REST (\S+)\/v3/.exec(banner)![1];
    assert.equal((await fetch(`${us}/v3/auth/test`, { headers: { 'X-API-KEY': 'served-key-1' } })).status, 200);
    assert.equal((await (await fetch(`${us}/_emulator/health`)).json()).fixture, './served');
  } finally {
    child.kill('SIGTERM');
  }
});

test('16.3 fixtures: wfe fixture schema prints a JSON Schema that describes the format', () => {
  const r = cli(['fixture', 'schema']);
  assert.equal(r.status, 0, r.stderr);
  const schema = JSON.parse(r.stdout);
  assert.equal(schema.$schema, 'https://json-schema.org/draft/2020-12/schema');
  assert.equal(schema.type, 'object');
  assert.ok(schema.properties.workspaces);
  assert.deepEqual(schema.required, ['workspaces']);
  assert.equal(schema.additionalProperties, false);
  assert.match(JSON.stringify(schema), /\+2d/);
});
