// Workspace isolation (spec v3 5.10, 5.1): every operation of the table, called
// with every fixture key against the other workspace's resources, answers 404
// (never 403 unless the route refuses that kind of key before any lookup, never
// data); lists of one workspace show nothing of the other. Operations join
// automatically: path parameters are filled by what they name (table below).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestServer, DEMO, KEYS, ROOT, type TestServer } from './helpers/server';
import { smallDoc } from './helpers/templates';
import { pathParams, type Operation } from '../src/operations/define';
import { legacyRoutes } from '../src/legacy/routes';
import { z } from 'zod';

type Side = 'acme' | 'globex';
const ACME_KEYS = [KEYS.admin, KEYS.owner, KEYS.member, KEYS.noperm, KEYS.workspace];
const GLOBEX_KEYS = [KEYS.globexAdmin, KEYS.globexWorkspace];
const sideOf = (key: string): Side => (key.startsWith('globex') ? 'globex' : 'acme');
const other = (s: Side): Side => (s === 'acme' ? 'globex' : 'acme');

const globexDoc = JSON.parse(readFileSync(join(ROOT, 'fixtures/demo/templates/globex-audit.json'), 'utf8'));
const globexField: string | undefined = globexDoc.tasks.flatMap((t: { fields?: { id: string }[] }) => t.fields ?? [])[0]?.id;

/** Words and ids that belong to one workspace only: none may appear in the other's answers. */
const SECRETS: Record<Side, string[]> = {
  acme: ['Acme', '@acme.test', 'Ada Admin', 'Mia Member', 'Jane Doe', 'Employee Onboarding', 'Vendor Review', DEMO.acme, DEMO.onboarding, DEMO.janeDoe, DEMO.expense],
  globex: ['Globex', '@globex.test', 'Gina', 'Gero', 'Auditors', 'Audit Q3', globexDoc.name, DEMO.globex, DEMO.globexAudit, DEMO.globexChecklist],
};

/** A resource of each workspace for each kind of path parameter (by the path segment before it). */
const RESOURCES: Record<string, Record<Side, string | number | undefined>> = {
  templates: { acme: DEMO.onboarding, globex: DEMO.globexAudit },
  checklists: { acme: DEMO.janeDoe, globex: DEMO.globexChecklist },
  'checklists/tasks': { acme: DEMO.tasks.collectDetails, globex: '21000000-0000-4000-8000-000000000501' },
  tasks: { acme: DEMO.renewInsurance, globex: undefined },
  fields: { acme: '22000000-0000-4000-8000-000000000101', globex: globexField },
  members: { acme: DEMO.members.mia, globex: 202 },
  groups: { acme: DEMO.groups.operations, globex: 311 },
  'data-sets': { acme: DEMO.offices, globex: undefined },
  comments: { acme: undefined, globex: undefined }, // made in before()
  drafts: { acme: undefined, globex: undefined }, // made in before()
  webhooks: { acme: undefined, globex: undefined }, // made in before()
};

/** Bodies that pass validation, so the lookup is what answers. */
const BODIES: Record<string, unknown> = {
  createTemplateVersion: smallDoc('Isolation'),
  setTemplatePermissions: { permissions: [] },
  updateTemplateDraft: { name: 'Isolation' },
};

/** Values for body properties by name (required ones, and the comment text), for operations without a BODIES entry. */
const BY_NAME: Record<string, (owner: Side) => unknown> = {
  tags: () => ['isolation'],
  assignees: () => [],
  fields: (o) => [{ key: RESOURCES.fields[o], value: 'x' }],
  rows: () => [['x']],
  name: () => 'Isolation',
  data: () => 'aGk=',
  text: () => 'isolation',
  checklistKey: (o) => RESOURCES.checklists[o],
  dueDateTime: () => '2030-01-01T00:00:00Z',
  snoozedUntil: () => '2030-01-01T00:00:00Z',
  value: () => 'x',
  cells: () => [],
};

function bodyFor(op: Operation, owner: Side): Record<string, unknown> | undefined {
  if (op.method === 'GET') return undefined;
  if (BODIES[op.id]) return BODIES[op.id] as Record<string, unknown>;
  const js = z.toJSONSchema(z.object(op.input), { io: 'input', unrepresentable: 'any' }) as { properties?: Record<string, unknown>; required?: string[] };
  const out: Record<string, unknown> = {};
  const skip = new Set([...pathParams(op.path), ...(op.query ?? [])]);
  for (const name of Object.keys(js.properties ?? {})) {
    if (skip.has(name) || !BY_NAME[name]) continue;
    if ((js.required ?? []).includes(name) || name === 'text' || name === 'dueDateTime' || name === 'snoozedUntil') out[name] = BY_NAME[name](owner);
  }
  return out;
}

/** Required query parameters (e.g. the tag `name` of a tag removal). */
function queryFor(op: Operation): string {
  const js = z.toJSONSchema(z.object(op.input), { io: 'input', unrepresentable: 'any' }) as { required?: string[] };
  const q = (op.query ?? []).filter((n) => (js.required ?? []).includes(n));
  return q.length ? '?' + q.map((n) => `${n}=isolation`).join('&') : '';
}

let s: TestServer;
before(async () => {
  s = await startTestServer();
  for (const [side, key, base] of [
    ['acme', KEYS.admin, s.us],
    ['globex', KEYS.globexAdmin, s.eu],
  ] as const) {
    const d = await s.api(key, 'POST', '/v3/drafts', { templateKey: side === 'acme' ? DEMO.onboarding : DEMO.globexAudit }, {}, base);
    assert.equal(d.status, 201, JSON.stringify(d.body));
    RESOURCES.drafts[side] = d.body.key;
    const w = await s.api(key, 'POST', '/v3/webhooks', { eventType: 'new_checklist', targetUrl: `http://127.0.0.1:9/${side}`, scope: { type: 'Template', key: side === 'acme' ? DEMO.onboarding : DEMO.globexAudit } }, {}, base);
    assert.equal(w.status, 201, JSON.stringify(w.body));
    RESOURCES.webhooks[side] = w.body.id;
    const t = await s.api(key, 'POST', '/v3/tasks', { name: `${side} isolation task` }, {}, base);
    assert.equal(t.status, 201, JSON.stringify(t.body));
    RESOURCES.tasks[side] = t.body.key;
    const task = RESOURCES['checklists/tasks'][side];
    const c = await s.api(key, 'POST', `/v3/checklists/${RESOURCES.checklists[side]}/tasks/${task}/comments`, { text: `${side} comment` }, {}, base);
    assert.equal(c.status, 201, JSON.stringify(c.body));
    RESOURCES.comments[side] = c.body.id;
    const l = await fetch(`${base}/api/web-hook/subscribe?source=iso&eventType=new_checklist&targetUrl=http://127.0.0.1:9/${side}-legacy&templateKey=${side === 'acme' ? DEMO.onboarding : DEMO.globexAudit}`, {
      method: 'POST',
      headers: { 'X-API-KEY': key, 'X-API-VERSION': '2.0' },
    });
    assert.equal(l.status, 200, await l.text());
  }
});
after(() => s.close());

/** The path with every parameter naming a resource of `owner`; undefined when some parameter names nothing we have. */
function pathFor(op: Operation, owner: Side): string | undefined {
  let path = op.path;
  for (const p of pathParams(op.path)) {
    const before = op.path.slice(0, op.path.indexOf(`:${p}`)).replace(/\/$/, '');
    const segment = before.slice(before.lastIndexOf('/') + 1);
    const kind = segment === 'tasks' && /\/checklists\//.test(op.path) ? 'checklists/tasks' : segment;
    const v = RESOURCES[kind]?.[owner];
    if (v === undefined) return undefined;
    path = path.replace(`:${p}`, encodeURIComponent(String(v)));
  }
  return path;
}

const baseOf = (key: string) => (sideOf(key) === 'acme' ? s.us : s.eu);

/** Refusals a route makes before any lookup, which reveal nothing (spec v3 5.6, 5.9, 7). */
function preLookup(op: Operation, key: string): string | undefined {
  const workspaceKey = key === KEYS.workspace || key === KEYS.globexWorkspace;
  const memberNonAdmin = key === KEYS.member || key === KEYS.noperm;
  if (op.actor === 'member' && workspaceKey) return 'API_KEY_ACTS_AS_WORKSPACE';
  if (op.actor === 'admin' && memberNonAdmin) return 'FORBIDDEN';
  return undefined;
}

async function mcpCall(base: string, key: string, tool: string, args: Record<string, unknown>) {
  const res = await fetch(`${base}/mcp`, {
    method: 'POST',
    headers: { 'X-API-KEY': key, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: tool, arguments: args } }),
  });
  const text = await res.text();
  return { status: res.status, text, body: JSON.parse(text) };
}

test("5.10: every operation, every key, against the other workspace's resources: 404, never 403, never data (REST and MCP)", async () => {
  const tried: string[] = [];
  const validationFirst = new Set<string>();
  const skipped: string[] = [];
  for (const op of s.emu.ops) {
    if (pathParams(op.path).length === 0) continue;
    if (op.path.startsWith('/v3/schema/')) continue; // content types are the service's, not a workspace's
    for (const key of [...ACME_KEYS, ...GLOBEX_KEYS]) {
      const owner = other(sideOf(key));
      const path = pathFor(op, owner);
      if (!path) {
        skipped.push(`${op.id} (${owner})`);
        continue;
      }
      const body = bodyFor(op, owner);
      const r = await s.api(key, op.method, path + queryFor(op), body, {}, baseOf(key));
      const what = `${op.method} ${path} with ${key}: ${r.status} ${r.text.slice(0, 300)}`;
      tried.push(op.id);
      const allowed = preLookup(op, key);
      if (allowed) {
        assert.equal(r.body?.error?.code, allowed, what);
      } else if (r.status === 400) {
        // Bodies are validated before what they name is looked up (EMULATOR.md): a refusal that reveals nothing.
        assert.equal(r.body.error.code, 'VALIDATION_ERROR', what);
        validationFirst.add(op.id);
      } else {
        assert.equal(r.status, 404, what);
        assert.match(r.body.error.code, /NOT_FOUND$/, what);
      }
      // The request's own path may be echoed in a 404 message; anything else of the other workspace may not appear.
      const secrets = SECRETS[owner].filter((x) => !decodeURIComponent(path).includes(x));
      for (const secret of secrets) assert.ok(!r.text.includes(secret), `${what} leaks ${secret}`);
      if (op.tool) {
        const args: Record<string, unknown> = { ...(body as object) };
        for (const p of pathParams(op.path)) {
          const v = decodeURIComponent(path.split('/')[op.path.split('/').indexOf(`:${p}`)]);
          args[p] = /^\d+$/.test(v) ? Number(v) : v;
        }
        if (op.bodyAs) args[op.bodyAs] = body;
        for (const [k, v] of new URLSearchParams(queryFor(op))) args[k] = v;
        const m = await mcpCall(baseOf(key), key, op.tool, args);
        const sc = m.body.result?.structuredContent;
        assert.equal(m.body.result?.isError, true, `MCP ${op.tool} ${what}: ${m.text.slice(0, 300)}`);
        assert.equal(sc.error.code, r.body.error.code, `MCP ${op.tool} gives the REST refusal for ${what}`);
        for (const secret of secrets) assert.ok(!m.text.includes(secret), `MCP ${op.tool} leaks ${secret}`);
      }
    }
  }
  assert.ok(tried.length > 50, `only ${tried.length} calls`);
  if (validationFirst.size) process.stderr.write(`isolation: refused by validation before the lookup (no body given here): ${[...validationFirst].join(', ')}\n`);
  if (skipped.length) process.stderr.write(`isolation: no resource of the other workspace for ${[...new Set(skipped)].join(', ')}\n`);
});

test('5.10: the other workspace\'s resources through the legacy API are not found and not listed', async () => {
  for (const key of [...ACME_KEYS, ...GLOBEX_KEYS]) {
    const owner = other(sideOf(key));
    const list = await fetch(`${baseOf(key)}/api/web-hook/subscriptions`, { headers: { 'X-API-KEY': key } });
    const text = await list.text();
    for (const secret of [...SECRETS[owner], String(RESOURCES.webhooks[owner]), `${owner}-legacy`]) assert.ok(!text.includes(secret), `legacy list for ${key} shows ${secret}`);
    // Legacy spec 4.7 lists no 404 for unsubscribe; whatever it answers, the other workspace's subscription stays.
    const del = await fetch(`${baseOf(key)}/api/web-hook/unsubscribe?subscriptionId=${RESOURCES.webhooks[owner]}`, { method: 'DELETE', headers: { 'X-API-KEY': key } });
    const delText = await del.text();
    assert.ok(del.status < 500, `legacy unsubscribe with ${key}: ${del.status}`);
    for (const secret of SECRETS[owner]) assert.ok(!delText.includes(secret), `legacy unsubscribe answer for ${key} shows ${secret}`);
  }
  for (const [side, key, base] of [['globex', KEYS.globexAdmin, s.eu], ['acme', KEYS.admin, s.us]] as const) {
    const mine = await s.api(key, 'GET', '/v3/webhooks', undefined, {}, base);
    assert.ok(mine.body.items.some((w: { id: string }) => w.id === RESOURCES.webhooks[side]), `${side}'s subscription survived the other workspace's unsubscribe`);
  }
  void legacyRoutes;
});

test('5.3, 5.10: lists and searches of one workspace show nothing of the other (every list operation, every key)', async () => {
  let lists = 0;
  for (const op of s.emu.ops) {
    if (op.method !== 'GET' || pathParams(op.path).length > 0 || op.path.startsWith('/v3/schema/') || op.path === '/v3/openapi.json') continue;
    for (const key of [...ACME_KEYS, ...GLOBEX_KEYS]) {
      const owner = other(sideOf(key));
      for (const query of ['', '?search=a', '?includeArchived=true&includeAllVersions=true']) {
        const r = await s.api(key, 'GET', op.path + query, undefined, {}, baseOf(key));
        assert.ok(r.status < 500, `${op.id} ${key}: ${r.status}`);
        for (const secret of [...SECRETS[owner], String(RESOURCES.drafts[owner]), String(RESOURCES.webhooks[owner])]) {
          assert.ok(!r.text.includes(secret), `${op.path}${query} with ${key} shows ${secret}: ${r.text.slice(0, 200)}`);
        }
        lists++;
      }
    }
  }
  assert.ok(lists > 30);
});
