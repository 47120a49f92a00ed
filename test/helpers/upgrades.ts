// Helpers for the upgrade tests: template pairs built through the real routes (create,
// export, publish), checklists started and answered over REST, and the worker driven by
// the emulator clock (/_emulator/clock/advance, then /_emulator/upgrades/run).
import assert from 'node:assert/strict';
import { KEYS, type ApiAnswer, type TestServer } from './server';

/** The emulator-clock delay the upgrade tests run with: nothing is rebuilt until the clock moves. */
export const UPGRADE_DELAY_MS = 60_000;

export function upgradeKit(s: TestServer) {
  const ok = async (p: Promise<ApiAnswer>, status = 200): Promise<any> => {
    const r = await p;
    assert.equal(r.status, status, r.text);
    return r.body;
  };
  const control = async (method: string, path: string, body?: unknown) => {
    const r = await fetch(`${s.us}${path}`, { method, headers: body === undefined ? {} : { 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await r.text();
    return { status: r.status, body: text ? JSON.parse(text) : undefined };
  };
  const kit = {
    ok,
    control,
    /** POST /v3/templates, then the exported document (with ids). */
    async createTemplate(doc: unknown, key: string = KEYS.admin): Promise<{ key: string; doc: any }> {
      const created = await ok(s.api(key, 'POST', '/v3/templates', doc), 201);
      return { key: created.key, doc: await kit.exportDoc(created.key) };
    },
    exportDoc: async (templateKey: string, version?: number): Promise<any> =>
      ok(s.api(KEYS.admin, 'GET', `/v3/templates/${templateKey}/document${version ? `?version=${version}` : ''}`)),
    /** Publishes `doc` as a new version (as `key`, the publisher); answers the new document. */
    async publish(templateKey: string, doc: unknown, key: string = KEYS.owner): Promise<any> {
      await ok(s.api(key, 'POST', `/v3/templates/${templateKey}/versions`, doc), 201);
      return kit.exportDoc(templateKey);
    },
    async start(templateKey: string, name: string, parameters?: Record<string, unknown>, version?: number): Promise<string> {
      const b = await ok(s.api(KEYS.admin, 'POST', '/v3/checklists', { templateKey, name, ...(parameters ? { parameters } : {}), ...(version ? { version } : {}) }), 201);
      return b.key;
    },
    answer: (c: string, t: string, f: string, value: unknown) => ok(s.api(KEYS.admin, 'PUT', `/v3/checklists/${c}/tasks/${t}/fields/${f}`, { value })),
    task: (c: string, t: string) => ok(s.api(KEYS.admin, 'GET', `/v3/checklists/${c}/tasks/${t}`)),
    tasks: async (c: string): Promise<any[]> => (await ok(s.api(KEYS.admin, 'GET', `/v3/checklists/${c}/tasks`))).tasks,
    checklist: (c: string) => ok(s.api(KEYS.admin, 'GET', `/v3/checklists/${c}`)),
    /** The field object of a task (undefined when the task does not list it). */
    field: async (c: string, t: string, f: string): Promise<any> => (await kit.task(c, t)).fields.find((x: any) => x.key === f),
    activity: async (c: string): Promise<any[]> => (await ok(s.api(KEYS.admin, 'GET', `/v3/checklists/${c}/activity?pageSize=100`))).items,
    upgrade: (templateKey: string, body: unknown, key: string = KEYS.admin) => s.api(key, 'POST', `/v3/templates/${templateKey}/upgrades`, body),
    candidates: async (templateKey: string, query = ''): Promise<any> => ok(s.api(KEYS.admin, 'GET', `/v3/templates/${templateKey}/upgrades${query}`)),
    /** Moves the emulator clock past the queue delay and runs every due rebuild (answers how many /run ran). */
    async runWorker(): Promise<number> {
      assert.equal((await control('POST', '/_emulator/clock/advance', { seconds: UPGRADE_DELAY_MS / 1000 })).status, 200);
      const r = await control('POST', '/_emulator/upgrades/run');
      assert.equal(r.status, 200, JSON.stringify(r.body));
      return r.body.ran;
    },
    /** Queues the upgrade of one checklist (202) and runs the worker. */
    async upgradeNow(templateKey: string, checklistKey: string, version?: number): Promise<void> {
      const r = await kit.upgrade(templateKey, { checklistKeys: [checklistKey], ...(version ? { version } : {}) });
      assert.equal(r.status, 202, r.text);
      await kit.runWorker();
      // The worker's own poll may have run it between the clock move and /run: read the queue.
      const jobs = (await control('GET', '/_emulator/upgrades')).body.jobs.filter((j: any) => j.checklistKey === checklistKey);
      assert.notEqual(jobs[0]?.state, 'queued', JSON.stringify(jobs[0]));
    },
  };
  return kit;
}

/** Task and field keys of an exported document, by ref. */
export const taskKey = (doc: any, ref: string): string => doc.tasks.find((t: any) => t.ref === ref).id;
export const fieldKey = (doc: any, ref: string): string => {
  for (const t of doc.tasks) for (const f of t.fields ?? []) if (f.ref === ref) return f.id;
  throw new Error(`no field ${ref}`);
};
export const fieldDef = (doc: any, ref: string): any => {
  for (const t of doc.tasks) for (const f of t.fields ?? []) if (f.ref === ref) return f;
  throw new Error(`no field ${ref}`);
};
export const taskDef = (doc: any, ref: string): any => doc.tasks.find((t: any) => t.ref === ref);
export const clone = <T>(x: T): T => structuredClone(x);
