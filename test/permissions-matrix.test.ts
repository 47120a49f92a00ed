// The permission matrix (spec v3 5.4-5.9, 7): every fixture key against every
// operation the rules of section 5 speak about, compared cell by cell with a
// model of those rules written here from the spec (not from the code).
// An operation of the table that no row covers (and NOT_IN_MATRIX does not name,
// with its reason) fails the test, so a new operation needs its row.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, DEMO, KEYS as FIXTURE_KEYS, PLANNER_KEY, type TestServer } from './helpers/server';
import { smallDoc } from './helpers/templates';
import { tableDigests } from './fuzz/digest';

/** The fixture's keys, with Paula Planner's (Schedule.Creator, Library.Creator) for the granted side of 5.4 and 5.5. */
const KEYS = { ...FIXTURE_KEYS, planner: PLANNER_KEY } as const;
type KeyName = keyof typeof KEYS;
/** 'ok' = any 2xx; otherwise the error code expected. */
type Cell = 'ok' | string;

// ── the fixture's facts the rules need (EMULATOR.md "The demo fixture") ─────────────
const ADMINS: KeyName[] = ['admin', 'owner'];
const RIGHTS: Partial<Record<KeyName, string[]>> = { member: ['Checklist.Creator', 'Task.Creator', 'Task.Attacher'], noperm: [], planner: ['Schedule.Creator', 'Library.Creator'] };
type Folder = 'HR' | 'Procurement' | null;
/** Library folder permission per member key (HR: Operations group Edit; Procurement: Mia View, Nora Deny; Paula: no rule names her). */
type MemberKey = 'member' | 'noperm' | 'planner';
const FOLDER: Record<MemberKey, Record<'HR' | 'Procurement', 'View' | 'Edit' | 'Deny' | undefined>> = {
  member: { HR: 'Edit', Procurement: 'View' },
  noperm: { HR: undefined, Procurement: 'Deny' },
  planner: { HR: undefined, Procurement: undefined },
};
/** 5.4: who may open a Vendor Review checklist (Mia ViewOnly; Nora and Paula have no rule and nothing assigned). */
const readsVendor = (k: KeyName) => k !== 'noperm' && k !== 'planner';
const TEMPLATES: { name: string; key: string; folder: Folder }[] = [
  { name: 'Employee Onboarding', key: DEMO.onboarding, folder: 'HR' },
  { name: 'Vendor Review', key: DEMO.vendor, folder: 'Procurement' },
  { name: 'Expense Report', key: DEMO.expense, folder: null },
];

// ── the rules of spec v3 5 ────────────────────────────────────────────────
const UNAUTHENTICATED: Partial<Record<KeyName, string>> = { revoked: 'API_KEY_REVOKED', expired: 'API_KEY_EXPIRED', unavailable: 'API_KEY_ACTOR_UNAVAILABLE' };
const isWorkspace = (k: KeyName) => k === 'workspace';
const isAdmin = (k: KeyName) => ADMINS.includes(k);
/** 5.9: a workspace key passes every template, draft and webhook check; Administrators pass capability checks. */
const passesAll = (k: KeyName) => isWorkspace(k) || isAdmin(k);
const folderOf = (k: KeyName, f: Folder) => (f === null || passesAll(k) ? undefined : FOLDER[k as MemberKey][f]);
const has = (k: KeyName, right: string) => passesAll(k) || (RIGHTS[k] ?? []).includes(right);

const rules = {
  /** Reads any key of the workspace may make (people, tags, the template list: "not filtered", 5.4). */
  anyone: (): Cell => 'ok',
  /** 5.4, 5.7: a template read by key needs any folder permission except Deny. */
  templateRead: (k: KeyName, f: Folder): Cell => (folderOf(k, f) === 'Deny' ? 'FORBIDDEN' : 'ok'),
  /** 5.5: create a template needs Template.Creator. */
  templateCreate: (k: KeyName): Cell => (has(k, 'Template.Creator') ? 'ok' : 'FORBIDDEN'),
  /** 5.5, 5.7: publish, set permissions, copy need Template.Creator and Edit (not View or Deny). */
  templateEdit: (k: KeyName, f: Folder): Cell => {
    const p = folderOf(k, f);
    return has(k, 'Template.Creator') && p !== 'View' && p !== 'Deny' ? 'ok' : 'FORBIDDEN';
  },
  /** 5.6: archive/unarchive a template and every webhook route: Administrators (and 5.9 workspace keys) only. */
  adminOnly: (k: KeyName): Cell => (passesAll(k) ? 'ok' : 'FORBIDDEN'),
  /** 5.6, 5.9: archive a checklist: Administrators only; the workspace key acts through the anonymous member and is refused. */
  adminMemberOnly: (k: KeyName): Cell => (isAdmin(k) ? 'ok' : 'FORBIDDEN'),
  /**
   * 5.8 complete/uncomplete: Administrator; member with Run permission on the template; member assigned on the
   * checklist. 5.9: the workspace key through the anonymous member, whom AllUsers includes (docs/tasks.md).
   * `run` lists who has run permission on the template (AllUsers: everyone).
   */
  taskState: (k: KeyName, run: 'all' | KeyName[]): Cell => (isAdmin(k) || run === 'all' || run.includes(k) ? 'ok' : 'FORBIDDEN'),
  /** 5.8 assign, due date: any Administrator or Member (exclusive: assignees and Administrators); a workspace key is refused. */
  assignOrDue: (k: KeyName, exclusiveTo?: KeyName[]): Cell => (isWorkspace(k) ? 'FORBIDDEN' : exclusiveTo && !isAdmin(k) && !exclusiveTo.includes(k) ? 'FORBIDDEN' : 'ok'),
  /** 5.8 snooze: a member key that may see the checklist. */
  snooze: (k: KeyName): Cell => (isWorkspace(k) ? 'API_KEY_ACTS_AS_WORKSPACE' : 'ok'),
  /** 5.5, 5.9: create a checklist: Checklist.Creator and run permission; a workspace key from any template. */
  checklistCreate: (k: KeyName): Cell => (has(k, 'Checklist.Creator') ? 'ok' : 'FORBIDDEN'),
  /** 4.6 rule 3, 5.3, 5.9: the Tasks grid and saved views are a member's own; a workspace key is refused. */
  person: (k: KeyName): Cell => (isWorkspace(k) ? 'API_KEY_ACTS_AS_WORKSPACE' : 'ok'),
  /** 5.5: list or upgrade a template's checklists: a folder permission other than View or Deny. */
  upgradeList: (k: KeyName, f: Folder): Cell => {
    const p = folderOf(k, f);
    return p === 'View' || p === 'Deny' ? 'FORBIDDEN' : 'ok';
  },
  /** 5.4: schedules need Schedule.Viewer or Schedule.Creator (Administrators and the workspace key pass). */
  scheduleRead: (k: KeyName): Cell => (has(k, 'Schedule.Viewer') || has(k, 'Schedule.Creator') ? 'ok' : 'FORBIDDEN'),
  /** 5.5, 5.9: raise a standalone task: Task.Creator; the workspace key needs none. */
  standaloneCreate: (k: KeyName): Cell => (has(k, 'Task.Creator') ? 'ok' : 'FORBIDDEN'),
};

type Answer = { status: number; body: any; text: string };
interface Row {
  op: string;
  label: string;
  expect: (k: KeyName) => Cell;
  call: (k: KeyName) => Promise<Answer>;
  /** The call makes and removes its own resources: the data is the same after it (checked by digest). */
  clean?: boolean;
}

/**
 * Operations this matrix would leave to other tests, each with its spec-based reason (docs/reliability.md
 * "Isolation and the permission matrix"). Empty: every operation of the table has a row; a new operation
 * with no row and no entry here fails the test.
 */
const NOT_IN_MATRIX: [RegExp, string][] = [];

/** Per-table digests of the data; `events` is the append-only event log (every event raised is kept, matched or not), so a fresh resource made and removed leaves its event there by design. */
const dataDigests = () => {
  const d = tableDigests(s.emu.db);
  delete d.events;
  return d;
};

let s: TestServer;
const rows: Row[] = [];
before(async () => {
  s = await startTestServer();
  const api = (method: string, path: string, body?: unknown) => (k: KeyName) => s.api(KEYS[k], method, path, body);
  for (const [op, path] of [
    ['authTest', '/v3/auth/test'],
    ['getWorkspace', '/v3/workspace'],
    ['listMembers', '/v3/members'],
    ['getMember', `/v3/members/${DEMO.members.nora}`],
    ['listGroups', '/v3/groups'],
    ['getGroup', `/v3/groups/${DEMO.groups.sales}`],
    ['listTags', '/v3/tags'],
    ['listTemplates', '/v3/templates?includeArchived=true'],
  ]) {
    rows.push({ op, label: path, expect: rules.anyone, call: api('GET', path) });
  }
  for (const t of TEMPLATES) {
    for (const [op, suffix] of [
      ['getTemplate', ''],
      ['exportTemplate', '/document'],
      ['listTemplateVersions', '/versions'],
      ['listTemplatePermissions', '/permissions'],
    ]) {
      rows.push({ op, label: `${t.name}${suffix}`, expect: (k) => rules.templateRead(k, t.folder), call: api('GET', `/v3/templates/${t.key}${suffix}`) });
    }
    const perms = await s.api(KEYS.admin, 'GET', `/v3/templates/${t.key}/permissions`);
    const list = (Array.isArray(perms.body) ? perms.body : (perms.body.items ?? perms.body.permissions)) as { assigneeType: string; assigneeId?: number; permission: string }[];
    const same = { permissions: list.map((p) => ({ assigneeType: p.assigneeType, assigneeId: p.assigneeId, permission: p.permission })) };
    rows.push({ op: 'setTemplatePermissions', label: t.name, expect: (k) => rules.templateEdit(k, t.folder), call: api('PUT', `/v3/templates/${t.key}/permissions`, same) });
    rows.push({ op: 'copyTemplate', label: t.name, expect: (k) => rules.templateEdit(k, t.folder), call: api('POST', `/v3/templates/${t.key}/copy`, {}) });
    const doc = await s.api(KEYS.admin, 'GET', `/v3/templates/${t.key}/document`);
    rows.push({ op: 'createTemplateVersion', label: t.name, expect: (k) => rules.templateEdit(k, t.folder), call: api('POST', `/v3/templates/${t.key}/versions`, doc.body) });
  }
  for (const t of TEMPLATES) {
    rows.push({ op: 'listChecklistUpgrades', label: t.name, expect: (k) => rules.upgradeList(k, t.folder), call: api('GET', `/v3/templates/${t.key}/upgrades`) });
  }
  rows.push({ op: 'listMyWork', label: 'own work', expect: rules.person, call: api('GET', '/v3/my-work') });
  rows.push({ op: 'listMyWorkViews', label: 'own views', expect: rules.person, call: api('GET', '/v3/my-work/views') });
  rows.push({ op: 'listSchedules', label: 'all schedules', expect: rules.scheduleRead, call: api('GET', '/v3/schedules') });
  rows.push({ op: 'createTemplate', label: 'unfiled', expect: rules.templateCreate, call: api('POST', '/v3/templates', smallDoc('Matrix')) });
  rows.push({
    op: 'archiveTemplate+unarchiveTemplate',
    label: 'Expense Report',
    expect: rules.adminOnly,
    call: async (k) => {
      const a = await s.api(KEYS[k], 'POST', `/v3/templates/${DEMO.expense}/archive`, {});
      if (a.status >= 300) return a;
      return s.api(KEYS[k], 'DELETE', `/v3/templates/${DEMO.expense}/archive`);
    },
  });
  // ── checklists and tasks (5.5, 5.6, 5.8, 5.9): on checklists made here, so every key starts from the same state.
  const newChecklist = async (templateKey: string, name: string) => {
    const r = await s.api(KEYS.admin, 'POST', '/v3/checklists', { templateKey, name });
    assert.equal(r.status, 201, r.text);
    return r.body.key as string;
  };
  const expenseCl = await newChecklist(DEMO.expense, 'Matrix expenses');
  const vendorCl = await newChecklist(DEMO.vendor, 'Matrix vendor');
  const approve = '21000000-0000-4000-8000-000000000202';
  const vendorTask = (s.emu.db.prepare('SELECT t.key FROM tasks t JOIN checklists c ON c.id = t.checklist_id WHERE c.key = ? AND t.is_heading = 0 AND t.is_stop = 0 ORDER BY t.position LIMIT 1').get(vendorCl) as { key: string }).key;
  const toggle = (cl: string, task: string, what = 'complete') => async (k: KeyName) => {
    const a = await s.api(KEYS[k], 'POST', `/v3/checklists/${cl}/tasks/${task}/${what}`);
    if (a.status >= 300) return a;
    return s.api(KEYS[k], 'DELETE', `/v3/checklists/${cl}/tasks/${task}/${what}`);
  };
  rows.push({ op: 'completeTask+uncompleteTask', label: 'Expense Report (AllUsers RunAndView)', expect: (k) => rules.taskState(k, 'all'), call: toggle(expenseCl, approve) });
  // Its first task has a required field (completing it would be 409 for everyone): not applicable follows the same rule (5.8).
  rows.push({ op: 'setTaskNotApplicable+clearTaskNotApplicable', label: 'Vendor Review (Mia ViewOnly, Nora no rule)', expect: (k) => rules.taskState(k, []), call: toggle(vendorCl, vendorTask, 'not-applicable') });
  /** 5.4: a checklist and its tasks are readable by Administrators, the workspace key, members with a checklist permission, and members assigned something on it. */
  const readVendor = (k: KeyName): Cell => (readsVendor(k) ? 'ok' : 'FORBIDDEN');
  rows.push({ op: 'getChecklist', label: 'Vendor Review checklist', expect: readVendor, call: api('GET', `/v3/checklists/${vendorCl}`) });
  rows.push({ op: 'listChecklistTasks', label: 'Vendor Review checklist', expect: readVendor, call: api('GET', `/v3/checklists/${vendorCl}/tasks`) });
  rows.push({ op: 'getTask', label: 'Vendor Review task', expect: readVendor, call: api('GET', `/v3/checklists/${vendorCl}/tasks/${vendorTask}`) });
  rows.push({ op: 'setTaskDueDate', label: 'Expense Report', expect: (k) => rules.assignOrDue(k), call: api('PUT', `/v3/checklists/${expenseCl}/tasks/${approve}/due-date`, { dueDateTime: '2031-01-01T00:00:00Z' }) });
  rows.push({ op: 'setTaskAssignees', label: 'Expense Report', expect: (k) => rules.assignOrDue(k), call: api('PUT', `/v3/checklists/${expenseCl}/tasks/${approve}/assignees`, { assignees: [] }) });
  const johnTask = (s.emu.db.prepare("SELECT t.key FROM tasks t JOIN checklists c ON c.id = t.checklist_id WHERE c.key = ? AND t.is_assigned_exclusively = 1 LIMIT 1").get(DEMO.johnRoe) as { key: string } | undefined)?.key;
  if (johnTask) {
    // Exclusively assigned to Ada; Nora cannot even read John Roe's checklist (5.4): FORBIDDEN as well.
    rows.push({ op: 'setTaskDueDate', label: "John Roe's task exclusive to Ada", expect: (k) => rules.assignOrDue(k, ['admin']), call: api('PUT', `/v3/checklists/${DEMO.johnRoe}/tasks/${johnTask}/due-date`, { dueDateTime: '2031-01-01T00:00:00Z' }) });
  }
  rows.push({ op: 'addTaskComment', label: 'Expense Report', expect: rules.anyone, call: api('POST', `/v3/checklists/${expenseCl}/tasks/${approve}/comments`, { text: 'matrix' }) });
  rows.push({
    op: 'setTaskSnooze+endTaskSnooze',
    label: 'Expense Report',
    expect: rules.snooze,
    call: async (k) => {
      const a = await s.api(KEYS[k], 'PUT', `/v3/checklists/${expenseCl}/tasks/${approve}/snooze`, { snoozedUntil: '2031-01-01T00:00:00Z' });
      if (a.status >= 300) return a;
      return s.api(KEYS[k], 'DELETE', `/v3/checklists/${expenseCl}/tasks/${approve}/snooze`);
    },
  });
  rows.push({
    op: 'createChecklist',
    label: 'from Expense Report',
    expect: rules.checklistCreate,
    call: async (k) => {
      const c = await s.api(KEYS[k], 'POST', '/v3/checklists', { templateKey: DEMO.expense, name: 'Matrix made' });
      if (c.status < 300) await s.api(KEYS.admin, 'DELETE', `/v3/checklists/${c.body.key}`);
      return c;
    },
  });
  rows.push({
    op: 'archiveChecklist+unarchiveChecklist',
    label: 'Expense Report checklist',
    expect: rules.adminMemberOnly,
    call: async (k) => {
      const a = await s.api(KEYS[k], 'POST', `/v3/checklists/${expenseCl}/archive`, {});
      if (a.status >= 300) return a;
      return s.api(KEYS[k], 'DELETE', `/v3/checklists/${expenseCl}/archive`);
    },
  });
  rows.push({
    op: 'createStandaloneTask',
    label: '(5.5 Task.Creator; 5.9 the workspace key needs none)',
    expect: rules.standaloneCreate,
    call: async (k) => {
      const c = await s.api(KEYS[k], 'POST', '/v3/tasks', { name: 'Matrix task' });
      if (c.status < 300) await s.api(KEYS.admin, 'DELETE', `/v3/tasks/${c.body.key}`);
      return c;
    },
  });
  rows.push({ op: 'listWebhooks', label: '', expect: rules.adminOnly, call: api('GET', '/v3/webhooks') });
  rows.push({
    op: 'createWebhook+deleteWebhook',
    label: '',
    expect: rules.adminOnly,
    call: async (k) => {
      const c = await s.api(KEYS[k], 'POST', '/v3/webhooks', { eventType: 'task_completed', targetUrl: 'http://127.0.0.1:9/matrix', scope: { type: 'Workspace' } });
      if (c.status >= 300) {
        // Delete is refused the same way, whatever it names (5.6: before any lookup).
        const made = await s.api(KEYS.admin, 'POST', '/v3/webhooks', { eventType: 'task_completed', targetUrl: 'http://127.0.0.1:9/matrix', scope: { type: 'Workspace' } });
        const d = await s.api(KEYS[k], 'DELETE', `/v3/webhooks/${made.body.id}`);
        assert.equal(d.body?.error?.code, c.body?.error?.code, `delete refused like create for ${k}`);
        return c;
      }
      return s.api(KEYS[k], 'DELETE', `/v3/webhooks/${c.body.id}`);
    },
  });
  rows.push({
    op: 'legacy /api/web-hook/*',
    label: 'subscriptions, subscribe',
    expect: rules.adminOnly,
    call: async (k) => {
      const r = await fetch(`${s.us}/api/web-hook/subscribe?source=m&eventType=new_checklist&targetUrl=http://127.0.0.1:9/m&templateKey=${DEMO.onboarding}`, { method: 'POST', headers: { 'X-API-KEY': KEYS[k], 'X-API-VERSION': '2.0' } });
      const text = await r.text();
      const body = text ? JSON.parse(text) : undefined;
      // Legacy bodies are {error: message}; map its 401/403 to the v3 codes for the comparison.
      const code = r.status === 403 ? 'FORBIDDEN' : r.status === 401 ? 'LEGACY_401' : undefined;
      return { status: r.status, text, body: code ? { error: { code } } : body };
    },
  });

  // ── rows added for the gaps: drafts, checklist PATCH/share/delete/archive/tags, task tags,
  // standalone tasks, comment deletion. Every write row below makes its own fresh resource
  // (as Ada, the admin key), lets the key under test act on it, and removes it again, so a row
  // depends on no other row and leaves the database as it found it (checked by digest: `clean`).
  const ok = (r: Answer, what: string) => {
    assert.ok(r.status < 300, `matrix setup, ${what}: ${r.status} ${r.text}`);
    return r;
  };
  const asAdmin = (method: string, path: string, body?: unknown) => s.api(KEYS.admin, method, path, body);
  /** Make something fresh, let key k act on it, remove it whatever the answer. */
  const fresh =
    <T>(make: () => Promise<T>, act: (k: KeyName, made: T) => Promise<Answer>, drop: (made: T) => Promise<void>) =>
    async (k: KeyName) => {
      const made = await make();
      try {
        return await act(k, made);
      } finally {
        await drop(made);
      }
    };
  const makeChecklist = async (templateKey: string, by: KeyName = 'admin') =>
    ok(await s.api(KEYS[by], 'POST', '/v3/checklists', { templateKey, name: 'Matrix fresh' }), `checklist by ${by}`).body.key as string;
  const dropChecklist = async (key: string) => {
    const r = await asAdmin('DELETE', `/v3/checklists/${key}`);
    assert.ok(r.status === 204 || r.status === 404, `drop checklist: ${r.status} ${r.text}`);
  };
  /** Checklist templates of the fixture as the rules see them (EMULATOR.md): who reads, who runs. */
  const CL = [
    { name: 'Expense Report', key: DEMO.expense, task: approve, run: 'all' as const, readable: (_k: KeyName) => true, attachable: true },
    { name: 'Vendor Review', key: DEMO.vendor, task: vendorTask, run: [] as KeyName[], readable: readsVendor, attachable: false },
  ];
  type ClT = (typeof CL)[number];
  /** 5.4 read; 5.8 row 1 run (Vendor Review: Mia ViewOnly, the first Alex Kim RunAndView, no key of his; Expense: AllUsers). */
  const clRead = (k: KeyName, t: ClT): Cell => (t.readable(k) ? 'ok' : 'FORBIDDEN');
  const clRun = (k: KeyName, t: ClT): Cell => (t.readable(k) ? rules.taskState(k, t.run) : 'FORBIDDEN');
  /** 5.5 run permission on the template for a member; 5.9 the workspace key only through a rule naming the anonymous member (AllUsers). */
  const runsTemplate = (k: KeyName, t: ClT) => isAdmin(k) || t.run === 'all' || t.run.includes(k);
  for (const t of CL) {
    const on = (act: (k: KeyName, key: string) => Promise<Answer>, prepare?: (key: string) => Promise<unknown>) =>
      fresh(async () => {
        const key = await makeChecklist(t.key);
        await prepare?.(key);
        return key;
      }, act, dropChecklist);
    const persistent = t.run === 'all' ? expenseCl : vendorCl;
    for (const [op, suffix] of [['getChecklistShare', '/share'], ['listChecklistTags', '/tags'], ['listAttachedTasks', '/attached-tasks'], ['listTaskTags', `/tasks/${t.task}/tags`]]) {
      rows.push({ op, label: `${t.name} (5.4 read)`, expect: (k) => clRead(k, t), call: api('GET', `/v3/checklists/${persistent}${suffix}`) });
    }
    // docs/checklists.md "PATCH ... who": whoever may work the checklist's tasks (5.8 row 1).
    rows.push({ op: 'updateChecklist', label: `${t.name} (decision: as 5.8 row 1)`, clean: true, expect: (k) => clRun(k, t), call: on((k, key) => s.api(KEYS[k], 'PATCH', `/v3/checklists/${key}`, { name: 'Matrix renamed', dueDateTime: '2031-01-01T00:00:00Z' })) });
    // docs/checklists.md "Share ... who may change sharing": as PATCH.
    rows.push({ op: 'shareChecklist', label: `${t.name} (decision: as PATCH)`, clean: true, expect: (k) => clRun(k, t), call: on((k, key) => s.api(KEYS[k], 'PUT', `/v3/checklists/${key}/share`)) });
    rows.push({
      op: 'unshareChecklist',
      label: `${t.name}, shared (decision: as PATCH)`,
      clean: true,
      expect: (k) => clRun(k, t),
      call: on((k, key) => s.api(KEYS[k], 'DELETE', `/v3/checklists/${key}/share`), async (key) => ok(await asAdmin('PUT', `/v3/checklists/${key}/share`), 'share')),
    });
    // docs/checklists.md "Tags ... who": anyone who may open the checklist.
    rows.push({ op: 'addChecklistTags', label: `${t.name} (decision: read access)`, clean: true, expect: (k) => clRead(k, t), call: on((k, key) => s.api(KEYS[k], 'POST', `/v3/checklists/${key}/tags`, { tags: ['matrix-tag'] })) });
    rows.push({
      op: 'removeChecklistTag',
      label: `${t.name}, tagged (decision: read access)`,
      clean: true,
      expect: (k) => clRead(k, t),
      call: on((k, key) => s.api(KEYS[k], 'DELETE', `/v3/checklists/${key}/tags?name=matrix-tag`), async (key) => ok(await asAdmin('POST', `/v3/checklists/${key}/tags`, { tags: ['matrix-tag'] }), 'tag')),
    });
    // 5.8 "Add comment, tag, untag: any key of the workspace; refusal none" (docs/tasks.md: no read check on these writes).
    rows.push({ op: 'addTaskTags', label: `${t.name} task (5.8: any key)`, clean: true, expect: rules.anyone, call: on((k, key) => s.api(KEYS[k], 'POST', `/v3/checklists/${key}/tasks/${t.task}/tags`, { tags: ['matrix-tag'] })) });
    rows.push({
      op: 'removeTaskTag',
      label: `${t.name} task, tagged (5.8: any key)`,
      clean: true,
      expect: rules.anyone,
      call: on((k, key) => s.api(KEYS[k], 'DELETE', `/v3/checklists/${key}/tasks/${t.task}/tags?name=matrix-tag`), async (key) => ok(await asAdmin('POST', `/v3/checklists/${key}/tasks/${t.task}/tags`, { tags: ['matrix-tag'] }), 'tag task')),
    });
    // 5.6: unarchive a checklist, Administrators only; 5.9: the workspace key (anonymous member) is refused.
    rows.push({
      op: 'unarchiveChecklist',
      label: `${t.name}, archived (5.6)`,
      clean: true,
      expect: rules.adminMemberOnly,
      call: on((k, key) => s.api(KEYS[k], 'DELETE', `/v3/checklists/${key}/archive`), async (key) => ok(await asAdmin('POST', `/v3/checklists/${key}/archive`, {}), 'archive')),
    });
    rows.push({ op: 'archiveChecklist', label: `${t.name} (5.6)`, clean: true, expect: rules.adminMemberOnly, call: on((k, key) => s.api(KEYS[k], 'POST', `/v3/checklists/${key}/archive`, {})) });
    // docs/checklists.md "DELETE ... who": Administrators and the checklist's creator; the workspace key is refused (5.9).
    rows.push({ op: 'deleteChecklist', label: `${t.name}, started by Ada (decision: Administrators, creator)`, clean: true, expect: (k) => (isAdmin(k) ? 'ok' : 'FORBIDDEN'), call: on((k, key) => s.api(KEYS[k], 'DELETE', `/v3/checklists/${key}`)) });
    // 5.8 "Delete a comment: its author or an Administrator" (the workspace key's anonymous member is neither for Ada's comment).
    rows.push({
      op: 'removeTaskComment',
      label: `${t.name} task, Ada's comment (5.8: author or Administrator)`,
      clean: true,
      expect: (k) => (isAdmin(k) ? 'ok' : 'FORBIDDEN'),
      call: fresh(
        async () => {
          const key = await makeChecklist(t.key);
          const c = ok(await asAdmin('POST', `/v3/checklists/${key}/tasks/${t.task}/comments`, { text: 'matrix' }), 'comment');
          return { key, id: c.body.id as number };
        },
        (k, m) => s.api(KEYS[k], 'DELETE', `/v3/checklists/${m.key}/tasks/${t.task}/comments/${m.id}`),
        (m) => dropChecklist(m.key),
      ),
    });
  }
  const expenseT = CL[0];
  rows.push({
    op: 'deleteChecklist',
    label: 'Expense Report, started by Mia (decision: Administrators, creator)',
    clean: true,
    expect: (k) => (isAdmin(k) || k === 'member' ? 'ok' : 'FORBIDDEN'),
    call: fresh(() => makeChecklist(DEMO.expense, 'member'), (k, key) => s.api(KEYS[k], 'DELETE', `/v3/checklists/${key}`), dropChecklist),
  });
  rows.push({
    op: 'addTaskComment+removeTaskComment',
    label: 'Expense Report task, own comment (5.8: author)',
    clean: true,
    expect: rules.anyone,
    call: fresh(
      () => makeChecklist(DEMO.expense),
      async (k, key) => {
        const c = await s.api(KEYS[k], 'POST', `/v3/checklists/${key}/tasks/${approve}/comments`, { text: 'mine' });
        if (c.status >= 300) return c;
        return s.api(KEYS[k], 'DELETE', `/v3/checklists/${key}/tasks/${approve}/comments/${c.body.id}`);
      },
      dropChecklist,
    ),
  });
  rows.push({
    op: 'removeTaskComment',
    label: "Expense Report task, Mia's comment (5.8: author or Administrator)",
    clean: true,
    expect: (k) => (isAdmin(k) || k === 'member' ? 'ok' : 'FORBIDDEN'),
    call: fresh(
      async () => {
        const key = await makeChecklist(DEMO.expense);
        const c = ok(await s.api(KEYS.member, 'POST', `/v3/checklists/${key}/tasks/${approve}/comments`, { text: 'mia' }), 'comment by Mia');
        return { key, id: c.body.id as number };
      },
      (k, m) => s.api(KEYS[k], 'DELETE', `/v3/checklists/${m.key}/tasks/${approve}/comments/${m.id}`),
      (m) => dropChecklist(m.key),
    ),
  });

  // ── standalone tasks (5.4, 5.5, 5.9; docs/checklists.md "Who may do what")
  const MEMBER_ID: Record<KeyName, number> = { admin: DEMO.members.ada, owner: DEMO.members.omar, member: DEMO.members.mia, noperm: DEMO.members.nora, workspace: 100, revoked: DEMO.members.ada, expired: DEMO.members.ada, unavailable: DEMO.members.dee, globexAdmin: DEMO.members.gina, globexWorkspace: 0, planner: DEMO.members.paula };
  interface Sa { by: KeyName; assignees: KeyName[] }
  const makeTask = async (sa: Sa) => {
    const key = ok(await s.api(KEYS[sa.by], 'POST', '/v3/tasks', { name: 'Matrix standalone' }), `standalone by ${sa.by}`).body.key as string;
    if (sa.assignees.length) ok(await asAdmin('PUT', `/v3/tasks/${key}/assignees`, { assignees: sa.assignees.map((k) => ({ type: 'TeamMember', id: MEMBER_ID[k] })) }), 'assign standalone');
    return key;
  };
  const dropTask = async (key: string) => {
    const r = await asAdmin('DELETE', `/v3/tasks/${key}`);
    assert.ok(r.status === 204 || r.status === 404, `drop task: ${r.status} ${r.text}`);
  };
  /** 5.4 (docs/checklists.md): an unattached task is read by Administrators, the workspace key, its raiser and its assignees. */
  const saRead = (k: KeyName, sa: Sa) => isAdmin(k) || isWorkspace(k) || sa.by === k || sa.assignees.includes(k);
  /** 5.5 Task.Creator to change or delete; 5.9 the workspace key only the tasks it raised. */
  const saChange = (k: KeyName, sa: Sa): Cell => (saRead(k, sa) && has(k, 'Task.Creator') && (!isWorkspace(k) || sa.by === 'workspace') ? 'ok' : 'FORBIDDEN');
  const saLabel = (sa: Sa) => `raised by ${sa.by}${sa.assignees.length ? `, assigned to ${sa.assignees.join(', ')}` : ''}`;
  const TASKS: Sa[] = [
    { by: 'admin', assignees: ['member'] },
    { by: 'workspace', assignees: ['member'] },
    { by: 'member', assignees: [] },
  ];
  for (const sa of TASKS) {
    const onTask = (act: (k: KeyName, key: string) => Promise<Answer>) => fresh(() => makeTask(sa), act, dropTask);
    rows.push({ op: 'getStandaloneTask', label: `${saLabel(sa)} (5.4)`, clean: true, expect: (k) => (saRead(k, sa) ? 'ok' : 'FORBIDDEN'), call: onTask((k, key) => s.api(KEYS[k], 'GET', `/v3/tasks/${key}`)) });
    rows.push({ op: 'updateStandaloneTask', label: `${saLabel(sa)} (5.5, 5.9)`, clean: true, expect: (k) => saChange(k, sa), call: onTask((k, key) => s.api(KEYS[k], 'PATCH', `/v3/tasks/${key}`, { name: 'Matrix renamed', description: 'changed' })) });
    rows.push({ op: 'deleteStandaloneTask', label: `${saLabel(sa)} (5.5, 5.9)`, clean: true, expect: (k) => saChange(k, sa), call: onTask((k, key) => s.api(KEYS[k], 'DELETE', `/v3/tasks/${key}`)) });
  }
  const saAdmin = TASKS[0];
  // 5.8 tag/untag: any key of the workspace, no refusal; listing the tags is a read (5.4).
  rows.push({ op: 'addStandaloneTaskTags', label: `${saLabel(saAdmin)} (5.8: any key)`, clean: true, expect: rules.anyone, call: fresh(() => makeTask(saAdmin), (k, key) => s.api(KEYS[k], 'POST', `/v3/tasks/${key}/tags`, { tags: ['matrix-tag'] }), dropTask) });
  rows.push({
    op: 'removeStandaloneTaskTag',
    label: `${saLabel(saAdmin)}, tagged (5.8: any key)`,
    clean: true,
    expect: rules.anyone,
    call: fresh(
      async () => {
        const key = await makeTask(saAdmin);
        ok(await asAdmin('POST', `/v3/tasks/${key}/tags`, { tags: ['matrix-tag'] }), 'tag standalone');
        return key;
      },
      (k, key) => s.api(KEYS[k], 'DELETE', `/v3/tasks/${key}/tags?name=matrix-tag`),
      dropTask,
    ),
  });
  rows.push({ op: 'listStandaloneTaskTags', label: `${saLabel(saAdmin)} (5.4)`, clean: true, expect: (k) => (saRead(k, saAdmin) ? 'ok' : 'FORBIDDEN'), call: fresh(() => makeTask(saAdmin), (k, key) => s.api(KEYS[k], 'GET', `/v3/tasks/${key}/tags`), dropTask) });
  // Attach (5.5: Task.Attacher and run permission on the checklist's template; 5.9: the workspace key needs no
  // Task.Attacher, changes only tasks it raised, and runs only through a rule naming the anonymous member).
  for (const t of CL) {
    for (const by of ['admin', 'workspace'] as KeyName[]) {
      const sa: Sa = { by, assignees: ['member', 'noperm'] };
      rows.push({
        op: 'attachStandaloneTask',
        label: `${saLabel(sa)}, to ${t.name} (5.5, 5.9${t.attachable ? '' : ', 5.10'})`,
        clean: true,
        // 5.10: settings apply to every key: Vendor Review has Tasks Can Be Attached off (allowAttachedTasks false), 409 once permitted.
        expect: (k) => (saRead(k, sa) && (!isWorkspace(k) || sa.by === 'workspace') && has(k, 'Task.Attacher') && t.readable(k) && runsTemplate(k, t) ? (t.attachable ? 'ok' : 'CONFLICT') : 'FORBIDDEN'),
        call: fresh(
          async () => ({ cl: await makeChecklist(t.key), task: await makeTask(sa) }),
          (k, m) => s.api(KEYS[k], 'PUT', `/v3/tasks/${m.task}/attachment`, { checklistKey: m.cl }),
          async (m) => {
            await dropTask(m.task);
            await dropChecklist(m.cl);
          },
        ),
      });
    }
  }
  for (const by of ['admin', 'workspace'] as KeyName[]) {
    const sa: Sa = { by, assignees: ['member', 'noperm'] };
    rows.push({
      op: 'detachStandaloneTask',
      label: `${saLabel(sa)}, attached to Expense Report (5.5, 5.9; docs: read and Task.Attacher)`,
      clean: true,
      expect: (k) => (expenseT.readable(k) && has(k, 'Task.Attacher') && (!isWorkspace(k) || sa.by === 'workspace') ? 'ok' : 'FORBIDDEN'),
      call: fresh(
        async () => {
          const cl = await makeChecklist(DEMO.expense);
          const task = await makeTask(sa);
          ok(await asAdmin('PUT', `/v3/tasks/${task}/attachment`, { checklistKey: cl }), 'attach');
          return { cl, task };
        },
        (k, m) => s.api(KEYS[k], 'DELETE', `/v3/tasks/${m.task}/attachment`),
        async (m) => {
          await dropTask(m.task);
          await dropChecklist(m.cl);
        },
      ),
    });
  }

  // ── template drafts (4.4 rule 4, 5.5, 5.9; docs/template-document.md "Drafts": a member key works on its
  // own drafts, Administrators and the workspace key on all; another member's draft is 403).
  const makeDraft = async (owner: KeyName, from?: string, invalid = false) => {
    const key = ok(await asAdmin('POST', '/v3/drafts', from ? { templateKey: from } : undefined), 'draft').body.key as string;
    if (invalid) {
      ok(await asAdmin('PATCH', `/v3/drafts/${key}`, { name: null, tasks: 'not a list' }), 'break draft');
      assert.equal((await asAdmin('POST', `/v3/drafts/${key}/validate`)).body.valid, false, 'the broken draft is invalid');
    }
    // Ownership is the fixture's fact under test: a draft "of" this key's member (the workspace key's is the anonymous member).
    if (owner !== 'admin') s.emu.db.prepare('UPDATE drafts SET created_by = ? WHERE key = ?').run(MEMBER_ID[owner], key);
    return key;
  };
  const settle = async (key: string) => {
    for (let i = 0; i < 200; i++) {
      const r = await asAdmin('GET', `/v3/drafts/${key}/commit`);
      if (r.status !== 200 || r.body.state !== 'pending') return;
      await new Promise((res) => setTimeout(res, 5));
    }
  };
  const dropDraft = async (key: string) => {
    await settle(key);
    const r = await asAdmin('DELETE', `/v3/drafts/${key}`);
    assert.ok(r.status === 204 || r.status === 404, `drop draft: ${r.status} ${r.text}`);
  };
  const draftOf = (owner: KeyName) => (k: KeyName): Cell => (passesAll(k) || k === owner ? 'ok' : 'FORBIDDEN');
  rows.push({ op: 'listTemplateDrafts', label: '(filtered to own drafts)', expect: rules.anyone, call: api('GET', '/v3/drafts') });
  for (const owner of ['admin', 'member'] as KeyName[]) {
    const onDraft = (act: (k: KeyName, key: string) => Promise<Answer>) => fresh(() => makeDraft(owner), act, dropDraft);
    const who = owner === 'admin' ? "Ada's draft" : "Mia's draft";
    rows.push({ op: 'getTemplateDraft', label: `${who} (docs: own drafts)`, clean: true, expect: draftOf(owner), call: onDraft((k, key) => s.api(KEYS[k], 'GET', `/v3/drafts/${key}`)) });
    rows.push({ op: 'updateTemplateDraft', label: `${who} (docs: own drafts)`, clean: true, expect: draftOf(owner), call: onDraft((k, key) => s.api(KEYS[k], 'PATCH', `/v3/drafts/${key}`, { description: 'matrix' })) });
    rows.push({ op: 'validateTemplateDraft', label: `${who} (docs: own drafts)`, clean: true, expect: draftOf(owner), call: onDraft((k, key) => s.api(KEYS[k], 'POST', `/v3/drafts/${key}/validate`)) });
    rows.push({ op: 'deleteTemplateDraft', label: `${who} (docs: own drafts)`, clean: true, expect: draftOf(owner), call: onDraft((k, key) => s.api(KEYS[k], 'DELETE', `/v3/drafts/${key}`)) });
    rows.push({
      op: 'getCommitStatus',
      label: `${who}, committed (docs: own drafts)`,
      clean: true,
      expect: draftOf(owner),
      call: fresh(
        async () => {
          const key = await makeDraft('admin', undefined, true);
          ok(await asAdmin('POST', `/v3/drafts/${key}/commit`), 'commit');
          await settle(key);
          if (owner !== 'admin') s.emu.db.prepare('UPDATE drafts SET created_by = ? WHERE key = ?').run(MEMBER_ID[owner], key);
          return key;
        },
        (k, key) => s.api(KEYS[k], 'GET', `/v3/drafts/${key}/commit`),
        dropDraft,
      ),
    });
  }
  // Creating a draft: any key (docs); from a template, the template must be readable (5.4, 5.7: folder not Deny).
  rows.push({
    op: 'createTemplateDraft+deleteTemplateDraft',
    label: 'empty, own (docs: own drafts)',
    clean: true,
    expect: rules.anyone,
    call: async (k) => {
      const c = await s.api(KEYS[k], 'POST', '/v3/drafts');
      if (c.status >= 300) return c;
      return s.api(KEYS[k], 'DELETE', `/v3/drafts/${c.body.key}`);
    },
  });
  for (const t of TEMPLATES) {
    rows.push({
      op: 'createTemplateDraft+deleteTemplateDraft',
      label: `from ${t.name} (5.4, 5.7 template read)`,
      clean: true,
      expect: (k) => rules.templateRead(k, t.folder),
      call: async (k) => {
        const c = await s.api(KEYS[k], 'POST', '/v3/drafts', { templateKey: t.key });
        if (c.status >= 300) return c;
        return s.api(KEYS[k], 'DELETE', `/v3/drafts/${c.body.key}`);
      },
    });
    // 5.5: committing a draft needs Template.Creator and Edit on the folder; the key's own draft, made invalid so
    // the commit (checked for permission at once, 202) publishes nothing.
    for (const owner of ['own', 'admin'] as const) {
      rows.push({
        op: 'commitTemplateDraft',
        label: `${owner === 'own' ? 'own' : "Ada's"} draft of ${t.name} (5.5 Template.Creator + Edit${owner === 'own' ? '' : '; docs: own drafts'})`,
        clean: true,
        expect: (k) => (owner === 'own' || passesAll(k) ? rules.templateEdit(k, t.folder) : 'FORBIDDEN'),
        call: (k) => fresh(() => makeDraft(owner === 'own' ? k : 'admin', t.key, true), (kk, key) => s.api(KEYS[kk], 'POST', `/v3/drafts/${key}/commit`), dropDraft)(k),
      });
    }
  }
  rows.push({
    op: 'commitTemplateDraft',
    label: 'own empty draft: a new template (5.5 Template.Creator)',
    clean: true,
    expect: rules.templateCreate,
    call: (k) => fresh(() => makeDraft(k, undefined, true), (kk, key) => s.api(KEYS[kk], 'POST', `/v3/drafts/${key}/commit`), dropDraft)(k),
  });
  // ── checklist reads with no row yet (5.4: as the checklist)
  for (const t of CL) {
    const persistent = t.run === 'all' ? expenseCl : vendorCl;
    for (const [op, suffix] of [['getChecklistLinks', '/links'], ['getChecklistActivity', '/activity']]) {
      rows.push({ op, label: `${t.name} (5.4 read)`, expect: (k) => clRead(k, t), call: api('GET', `/v3/checklists/${persistent}${suffix}`) });
    }
  }

  // ── the read and clear twins of the task rows (5.4 reads as the checklist; 5.8 gives each pair one rule)
  const vendorT = CL[1];
  const vendorField = (s.emu.db.prepare("SELECT v.document FROM template_versions v JOIN templates t ON t.id = v.template_id WHERE t.key = ? ORDER BY v.version DESC LIMIT 1").get(DEMO.vendor) as { document: string }).document;
  const fieldKey = (JSON.parse(vendorField).tasks as { id: string; fields?: { id: string }[] }[]).find((x) => x.id.toLowerCase() === vendorTask.toLowerCase())?.fields?.[0]?.id;
  for (const [op, suffix] of [['getTaskAssignees', '/assignees'], ['getTaskDueDate', '/due-date'], ['listTaskComments', '/comments'], ['getTaskActivity', '/activity'], ['listTaskFields', '/fields'], ...(fieldKey ? [['getTaskField', `/fields/${fieldKey}`]] : [])]) {
    rows.push({ op, label: 'Vendor Review task (5.4 read)', expect: (k) => clRead(k, vendorT), call: api('GET', `/v3/checklists/${vendorCl}/tasks/${vendorTask}${suffix}`) });
  }
  // 5.8 "Read or end own snooze: a member key (never refused for loss of checklist visibility)".
  rows.push({ op: 'getTaskSnooze', label: 'Vendor Review task (5.8: own snooze, whatever the visibility)', expect: rules.person, call: api('GET', `/v3/checklists/${vendorCl}/tasks/${vendorTask}/snooze`) });
  for (const [op, suffix, prepare] of [
    ['clearTaskAssignees', '/assignees', { method: 'PUT', body: { assignees: [{ type: 'TeamMember', id: DEMO.members.ada }] } }],
    ['clearTaskDueDate', '/due-date', { method: 'PUT', body: { dueDateTime: '2031-01-01T00:00:00Z' } }],
  ] as const) {
    rows.push({
      op,
      label: 'Vendor Review task (5.4 read, 5.8 assign row)',
      clean: true,
      expect: (k) => (clRead(k, vendorT) === 'ok' ? rules.assignOrDue(k) : 'FORBIDDEN'),
      call: fresh(
        async () => {
          const key = await makeChecklist(DEMO.vendor);
          ok(await asAdmin(prepare.method, `/v3/checklists/${key}/tasks/${vendorTask}${suffix}`, prepare.body), `${op} setup`);
          return key;
        },
        (k, key) => s.api(KEYS[k], 'DELETE', `/v3/checklists/${key}/tasks/${vendorTask}${suffix}`),
        dropChecklist,
      ),
    });
  }

  // ── upgrades (5.5 "List or upgrade a template's checklists: folder permission other than View or Deny")
  for (const t of TEMPLATES) {
    rows.push({
      op: 'upgradeChecklists',
      label: `${t.name}, one checklist at the latest version (5.5)`,
      // Not `clean`: starting an Onboarding checklist queues the fixture's new_checklist delivery.
      expect: (k) => rules.upgradeList(k, t.folder),
      call: fresh(
        () => makeChecklist(t.key),
        (k, key) => s.api(KEYS[k], 'POST', `/v3/templates/${t.key}/upgrades`, { checklistKeys: [key] }),
        dropChecklist,
      ),
    });
  }

  // ── the Tasks grid's bulk snoozes and saved views (4.6 rule 3, 5.3, 5.9: a member's own; the workspace key is refused)
  rows.push({
    op: 'snoozeTasks+endSnoozeTasks',
    label: 'Expense Report task (5.8 snooze, 5.9)',
    clean: true,
    expect: rules.person,
    call: async (k) => {
      const tasks = [{ checklistKey: expenseCl, taskKey: approve }];
      const a = await s.api(KEYS[k], 'POST', '/v3/my-work/snooze', { snoozedUntil: '2031-01-01T00:00:00Z', tasks });
      if (a.status >= 300) return a;
      return s.api(KEYS[k], 'DELETE', '/v3/my-work/snooze', { tasks });
    },
  });
  rows.push({
    op: 'createMyWorkView+getMyWorkView+updateMyWorkView+deleteMyWorkView',
    label: 'own view (5.3)',
    clean: true,
    expect: rules.person,
    call: async (k) => {
      const c = await s.api(KEYS[k], 'POST', '/v3/my-work/views', { name: 'Matrix view' });
      if (c.status >= 300) return c;
      for (const [method, body] of [['GET', undefined], ['PUT', { name: 'Matrix view 2' }]] as const) {
        const r = await s.api(KEYS[k], method, `/v3/my-work/views/${c.body.key}`, body);
        if (r.status >= 300) {
          await s.api(KEYS[k], 'DELETE', `/v3/my-work/views/${c.body.key}`);
          return r;
        }
      }
      return s.api(KEYS[k], 'DELETE', `/v3/my-work/views/${c.body.key}`);
    },
  });

  // ── schedules (5.4 Schedule.Viewer or Schedule.Creator to read; 5.5 Schedule.Creator and run permission to
  // write; 5.9 the workspace key passes). Paula Planner (Schedule.Creator) is the granted side for a member key,
  // on Expense Report, which AllUsers may run; Mia and Nora hold no Schedule.* right: the refused side.
  const scheduleBody = { name: 'Matrix schedule', templateKey: DEMO.expense, timeZone: 'Europe/Berlin', startDateTime: '2035-01-10T09:00:00', recurrence: { frequency: 'Daily' } };
  const scheduleWrite = (k: KeyName): Cell => (has(k, 'Schedule.Creator') ? 'ok' : 'FORBIDDEN');
  const makeSchedule = async () => ok(await asAdmin('POST', '/v3/schedules', scheduleBody), 'schedule').body as { id: number; nextRun: { id: number } };
  const dropSchedule = async (m: { id: number }) => {
    const r = await asAdmin('DELETE', `/v3/schedules/${m.id}`);
    assert.ok(r.status === 204 || r.status === 404, `drop schedule: ${r.status} ${r.text}`);
  };
  const onSchedule = (act: (k: KeyName, m: { id: number; nextRun: { id: number } }) => Promise<Answer>) => fresh(makeSchedule, act, dropSchedule);
  rows.push({ op: 'getSchedule', label: '(5.4)', clean: true, expect: rules.scheduleRead, call: onSchedule((k, m) => s.api(KEYS[k], 'GET', `/v3/schedules/${m.id}`)) });
  rows.push({ op: 'listScheduleRuns', label: '(5.4)', clean: true, expect: rules.scheduleRead, call: onSchedule((k, m) => s.api(KEYS[k], 'GET', `/v3/schedules/${m.id}/runs`)) });
  rows.push({ op: 'patchSchedule', label: '(5.5)', clean: true, expect: scheduleWrite, call: onSchedule((k, m) => s.api(KEYS[k], 'PATCH', `/v3/schedules/${m.id}`, { name: 'Matrix renamed' })) });
  rows.push({ op: 'deleteSchedule', label: '(5.5)', clean: true, expect: scheduleWrite, call: onSchedule((k, m) => s.api(KEYS[k], 'DELETE', `/v3/schedules/${m.id}`)) });
  rows.push({ op: 'skipScheduleRun', label: '(5.5, run permission on Expense Report: all)', clean: true, expect: scheduleWrite, call: onSchedule((k, m) => s.api(KEYS[k], 'POST', `/v3/schedules/${m.id}/runs/${m.nextRun.id}/skip`)) });
  rows.push({
    op: 'createSchedule',
    label: 'of Expense Report (5.5)',
    clean: true,
    expect: scheduleWrite,
    call: async (k) => {
      const c = await s.api(KEYS[k], 'POST', '/v3/schedules', scheduleBody);
      if (c.status < 300) await dropSchedule(c.body);
      return c;
    },
  });
  rows.push({
    op: 'startScheduleRun',
    label: 'its checklist now (5.5, 5.9: from any template)',
    expect: scheduleWrite,
    call: onSchedule(async (k, m) => {
      const r = await s.api(KEYS[k], 'POST', `/v3/schedules/${m.id}/runs/${m.nextRun.id}/start`);
      const made = r.body?.checklist?.key ?? r.body?.checklistKey;
      if (r.status < 300 && made) await dropChecklist(made);
      return r;
    }),
  });

  // The run-permission half of 5.5's schedule row, on Vendor Review (no rule lets Paula, Mia or Nora run it):
  // creating a schedule and acting on a run need run permission too, changing or deleting the schedule does not.
  const vendorSchedule = { ...scheduleBody, name: 'Matrix vendor schedule', templateKey: DEMO.vendor };
  const onVendorSchedule = (act: (k: KeyName, m: { id: number; nextRun: { id: number } }) => Promise<Answer>) =>
    fresh(async () => ok(await asAdmin('POST', '/v3/schedules', vendorSchedule), 'vendor schedule').body as { id: number; nextRun: { id: number } }, act, dropSchedule);
  const scheduleRun = (k: KeyName): Cell => (has(k, 'Schedule.Creator') && passesAll(k) ? 'ok' : 'FORBIDDEN');
  rows.push({
    op: 'createSchedule',
    label: 'of Vendor Review (5.5: and run permission)',
    clean: true,
    expect: scheduleRun,
    call: async (k) => {
      const c = await s.api(KEYS[k], 'POST', '/v3/schedules', vendorSchedule);
      if (c.status < 300) await dropSchedule(c.body);
      return c;
    },
  });
  rows.push({ op: 'patchSchedule', label: 'of Vendor Review (5.5: Schedule.Creator only)', clean: true, expect: scheduleWrite, call: onVendorSchedule((k, m) => s.api(KEYS[k], 'PATCH', `/v3/schedules/${m.id}`, { name: 'Matrix renamed' })) });
  rows.push({ op: 'deleteSchedule', label: 'of Vendor Review (5.5: Schedule.Creator only)', clean: true, expect: scheduleWrite, call: onVendorSchedule((k, m) => s.api(KEYS[k], 'DELETE', `/v3/schedules/${m.id}`)) });
  rows.push({ op: 'skipScheduleRun', label: 'of Vendor Review (5.5: and run permission)', clean: true, expect: scheduleRun, call: onVendorSchedule((k, m) => s.api(KEYS[k], 'POST', `/v3/schedules/${m.id}/runs/${m.nextRun.id}/skip`)) });
  rows.push({
    op: 'startScheduleRun',
    label: 'of Vendor Review, its checklist now (5.5: and run permission)',
    expect: scheduleRun,
    call: onVendorSchedule(async (k, m) => {
      const r = await s.api(KEYS[k], 'POST', `/v3/schedules/${m.id}/runs/${m.nextRun.id}/start`);
      const made = r.body?.checklist?.key ?? r.body?.checklistKey;
      if (r.status < 300 && made) await dropChecklist(made);
      return r;
    }),
  });

  // ── Data Sets (5.4 read: a Library or Template right, folder View or Edit when filed; 5.5 create: Library.Creator;
  // change: Library.Creator and Edit on its folder when filed; 5.6 delete: Administrators only; 5.9 the workspace key
  // passes). Sets made through the API are Unfiled (legacy 4.8), so no folder rule applies. Paula Planner
  // (Library.Creator) is the granted side for a member key; Nora holds no Library or Template right: refused.
  const dsRead = (k: KeyName): Cell => (passesAll(k) || (RIGHTS[k] ?? []).some((r) => r.startsWith('Library.') || r.startsWith('Template.')) ? 'ok' : 'FORBIDDEN');
  const dsChange = (k: KeyName): Cell => (has(k, 'Library.Creator') ? 'ok' : 'FORBIDDEN');
  interface Ds { key: string; field: string; field2: string; record: string; view: string }
  const makeSet = async (): Promise<Ds> => {
    const d = ok(await asAdmin('POST', '/v3/data-sets', { name: `Matrix set ${Math.random().toString(36).slice(2)}`, fields: [{ name: 'City', type: 'text' }, { name: 'Size', type: 'number' }] }), 'data set').body;
    const r = ok(await asAdmin('POST', `/v3/data-sets/${d.key}/records`, { values: { [d.fields[0].key]: 'Bonn' } }), 'record').body;
    const v = ok(await asAdmin('POST', `/v3/data-sets/${d.key}/views`, { name: 'Matrix view' }), 'view').body;
    return { key: d.key, field: d.fields[0].key, field2: d.fields[1].key, record: r.key, view: v.key };
  };
  const dropSet = async (d: Ds) => {
    const r = await asAdmin('DELETE', `/v3/data-sets/${d.key}?force=true`);
    assert.ok(r.status === 204 || r.status === 404, `drop data set: ${r.status} ${r.text}`);
  };
  const onSet = (act: (k: KeyName, d: Ds) => Promise<Answer>) => fresh(makeSet, act, dropSet);
  const csv = Buffer.from('City,Size\nBonn,3\n').toString('base64');
  const DS: [string, (k: KeyName) => Cell, (k: KeyName, d: Ds) => Promise<Answer>][] = [
    ['getDataSet', dsRead, (k, d) => s.api(KEYS[k], 'GET', `/v3/data-sets/${d.key}`)],
    ['listDataSetFields', dsRead, (k, d) => s.api(KEYS[k], 'GET', `/v3/data-sets/${d.key}/fields`)],
    ['getDataSetField', dsRead, (k, d) => s.api(KEYS[k], 'GET', `/v3/data-sets/${d.key}/fields/${d.field}`)],
    ['listDataSetRecords', dsRead, (k, d) => s.api(KEYS[k], 'GET', `/v3/data-sets/${d.key}/records`)],
    ['getDataSetRecord', dsRead, (k, d) => s.api(KEYS[k], 'GET', `/v3/data-sets/${d.key}/records/${d.record}`)],
    ['listDataSetViews', dsRead, (k, d) => s.api(KEYS[k], 'GET', `/v3/data-sets/${d.key}/views`)],
    ['getDataSetView', dsRead, (k, d) => s.api(KEYS[k], 'GET', `/v3/data-sets/${d.key}/views/${d.view}`)],
    ['exportDataSet', dsRead, async (k, d) => {
      const r = await fetch(`${s.us}/v3/data-sets/${d.key}/export`, { headers: { 'X-API-KEY': KEYS[k] } });
      const text = await r.text();
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
      return { status: r.status, text, body };
    }],
    ['listDataSetConnections', dsRead, (k, d) => s.api(KEYS[k], 'GET', `/v3/data-sets/${d.key}/connections`)],
    ['updateDataSet', dsChange, (k, d) => s.api(KEYS[k], 'PATCH', `/v3/data-sets/${d.key}`, { description: 'matrix' })],
    ['deleteDataSet', rules.adminOnly, (k, d) => s.api(KEYS[k], 'DELETE', `/v3/data-sets/${d.key}`)],
    ['createDataSetField', dsChange, (k, d) => s.api(KEYS[k], 'POST', `/v3/data-sets/${d.key}/fields`, { name: 'Extra', type: 'text' })],
    ['updateDataSetField', dsChange, (k, d) => s.api(KEYS[k], 'PATCH', `/v3/data-sets/${d.key}/fields/${d.field}`, { name: 'Town' })],
    ['deleteDataSetField', dsChange, (k, d) => s.api(KEYS[k], 'DELETE', `/v3/data-sets/${d.key}/fields/${d.field2}`)],
    ['createDataSetRecord', dsChange, (k, d) => s.api(KEYS[k], 'POST', `/v3/data-sets/${d.key}/records`, { values: { [d.field]: 'Celle' } })],
    ['updateDataSetRecord', dsChange, (k, d) => s.api(KEYS[k], 'PATCH', `/v3/data-sets/${d.key}/records/${d.record}`, { values: { [d.field]: 'Aachen' } })],
    ['deleteDataSetRecord', dsChange, (k, d) => s.api(KEYS[k], 'DELETE', `/v3/data-sets/${d.key}/records/${d.record}`)],
    ['bulkCreateDataSetRecords', dsChange, (k, d) => s.api(KEYS[k], 'POST', `/v3/data-sets/${d.key}/records/bulk`, { mode: 'append', records: [{ values: { [d.field]: 'Essen' } }] })],
    ['bulkDeleteDataSetRecords', dsChange, (k, d) => s.api(KEYS[k], 'DELETE', `/v3/data-sets/${d.key}/records/bulk`, { recordKeys: [d.record] })],
    ['createDataSetView', dsChange, (k, d) => s.api(KEYS[k], 'POST', `/v3/data-sets/${d.key}/views`, { name: 'Another view' })],
    ['updateDataSetView', dsChange, (k, d) => s.api(KEYS[k], 'PATCH', `/v3/data-sets/${d.key}/views/${d.view}`, { name: 'Renamed view' })],
    ['deleteDataSetView', dsChange, (k, d) => s.api(KEYS[k], 'DELETE', `/v3/data-sets/${d.key}/views/${d.view}`)],
    ['importDataSetRecords', dsChange, (k, d) => s.api(KEYS[k], 'POST', `/v3/data-sets/${d.key}/import`, { file: { name: 'm.csv', data: csv } })],
  ];
  for (const [op, expect, act] of DS) rows.push({ op, label: 'an Unfiled organisation set', clean: true, expect, call: onSet(act) });
  rows.push({ op: 'listDataSets', label: '(5.4)', expect: dsRead, call: api('GET', '/v3/data-sets') });
  rows.push({
    op: 'createDataSet',
    label: '(5.5 Library.Creator)',
    clean: true,
    expect: dsChange,
    call: async (k) => {
      const c = await s.api(KEYS[k], 'POST', '/v3/data-sets', { name: 'Matrix made set' });
      if (c.status < 300) await asAdmin('DELETE', `/v3/data-sets/${c.body.key}`);
      return c;
    },
  });
  rows.push({
    op: 'importDataSet',
    label: '(5.5 Library.Creator: a CSV import creates a set)',
    clean: true,
    expect: dsChange,
    call: async (k) => {
      const c = await s.api(KEYS[k], 'POST', '/v3/data-sets/import', { name: 'Matrix imported', file: { name: 'm.csv', data: csv } });
      if (c.status < 300) await asAdmin('DELETE', `/v3/data-sets/${c.body.dataSet?.key ?? c.body.key}`);
      return c;
    },
  });

  // ── validating a document (4.4 rule 4): no rule of section 5 names it, so any key may; with forTemplate the
  // document is checked against that template's ids, a read of the template (5.4, 5.7: refused on folder Deny).
  rows.push({ op: 'validateTemplate', label: 'a new document', expect: rules.anyone, call: api('POST', '/v3/templates/validate', smallDoc('Matrix check')) });
  for (const t of TEMPLATES) {
    const doc = ok(await asAdmin('GET', `/v3/templates/${t.key}/document`), 'export').body;
    rows.push({ op: 'validateTemplate', label: `an edit of ${t.name} (forTemplate: 5.4, 5.7 template read)`, expect: (k) => rules.templateRead(k, t.folder), call: api('POST', `/v3/templates/validate?forTemplate=${t.key}`, doc) });
  }

  // ── the checklist list and search (5.3: "return what the member sees in the app (a workspace key sees all)"):
  // never refused; a cell is 'ok' only when the Vendor Review checklist is listed exactly for the keys that may
  // open it (5.4), otherwise it shows what went wrong.
  const listsAsSeen = (call: (k: KeyName) => Promise<Answer>) => async (k: KeyName): Promise<Answer> => {
    const r = await call(k);
    if (r.status >= 300) return r;
    const shown = (r.body.items as { key: string }[]).some((c) => c.key === vendorCl);
    return shown === readsVendor(k) ? r : { status: 599, text: r.text, body: { error: { code: shown ? 'LISTS_AN_UNSEEN_CHECKLIST' : 'LEAVES_OUT_A_SEEN_CHECKLIST' } } };
  };
  rows.push({ op: 'listChecklists', label: 'of Vendor Review (5.3 as seen; 5.4)', expect: rules.anyone, call: listsAsSeen(api('GET', `/v3/checklists?templateKey=${DEMO.vendor}&pageSize=100`)) });
  const vendorName = '22000000-0000-4000-8000-000000000301';
  rows.push({
    op: 'searchChecklists',
    label: 'of Vendor Review, vendor name empty (5.3 as seen; 5.4)',
    expect: rules.anyone,
    call: listsAsSeen(api('POST', '/v3/checklists/search', { templateKey: DEMO.vendor, pageSize: 100, fields: [{ fieldKey: vendorName, operator: 'isEmpty' }] })),
  });

  // ── fields, files, tables (5.8 last row): on tasks neither halted nor exclusively assigned, the rule left is the
  // read (5.4, docs/tasks.md "Every task route checks read access") and "workspace key refused".
  const answers = (readable: (k: KeyName) => boolean) => (k: KeyName): Cell => (readable(k) && !isWorkspace(k) ? 'ok' : 'FORBIDDEN');
  const everyone = () => true;
  const submit = DEMO.tasks.submitReceipts;
  const receipts = '22000000-0000-4000-8000-000000000201';
  const FIELD_TASKS = [
    { name: 'Expense Report', template: DEMO.expense, task: submit, field: '22000000-0000-4000-8000-000000000202', readable: everyone },
    { name: 'Vendor Review', template: DEMO.vendor, task: vendorTask, field: vendorName, readable: readsVendor },
  ];
  for (const f of FIELD_TASKS) {
    const on = (act: (k: KeyName, key: string) => Promise<Answer>) => fresh(() => makeChecklist(f.template), act, dropChecklist);
    const base = (key: string) => `/v3/checklists/${key}/tasks/${f.task}/fields`;
    rows.push({ op: 'answerTaskField', label: `${f.name} task, a text field (5.8 last row)`, clean: true, expect: answers(f.readable), call: on((k, key) => s.api(KEYS[k], 'PUT', `${base(key)}/${f.field}`, { value: 'matrix' })) });
    rows.push({ op: 'answerTaskFields', label: `${f.name} task, a text field (5.8 last row)`, clean: true, expect: answers(f.readable), call: on((k, key) => s.api(KEYS[k], 'PATCH', base(key), { fields: [{ key: f.field, value: 'matrix' }] })) });
  }
  // 5.8 "task exclusively assigned to others is 403 unless the key acts as an Administrator": Expense Report's
  // first task, exclusive to Mia.
  rows.push({
    op: 'answerTaskField',
    label: 'Expense Report task exclusive to Mia (5.8 last row)',
    clean: true,
    expect: (k) => (isAdmin(k) || k === 'member' ? 'ok' : 'FORBIDDEN'),
    call: fresh(
      async () => {
        const key = await makeChecklist(DEMO.expense);
        ok(await asAdmin('PUT', `/v3/checklists/${key}/tasks/${submit}/assignees`, { assignees: [{ type: 'TeamMember', id: DEMO.members.mia }], isAssignedExclusively: true }), 'exclusive');
        return key;
      },
      (k, key) => s.api(KEYS[k], 'PUT', `/v3/checklists/${key}/tasks/${submit}/fields/${FIELD_TASKS[0].field}`, { value: 'matrix' }),
      dropChecklist,
    ),
  });
  const pdf = { name: 'matrix.pdf', contentType: 'application/pdf', data: Buffer.from('%PDF-1.4 matrix').toString('base64') };
  const files = (key: string) => `/v3/checklists/${key}/tasks/${submit}/fields/${receipts}/files`;
  rows.push({ op: 'listFieldFiles', label: 'Expense Report task (5.4 read)', expect: rules.anyone, call: api('GET', files(expenseCl)) });
  rows.push({ op: 'addFieldFile', label: 'Expense Report task (5.8 last row)', clean: true, expect: answers(everyone), call: fresh(() => makeChecklist(DEMO.expense), (k, key) => s.api(KEYS[k], 'POST', files(key), pdf), dropChecklist) });
  rows.push({
    op: 'removeFieldFile',
    label: "Expense Report task, Ada's file (5.8 last row)",
    clean: true,
    expect: answers(everyone),
    call: fresh(
      async () => {
        const key = await makeChecklist(DEMO.expense);
        return { key, id: ok(await asAdmin('POST', files(key), pdf), 'file').body.id as number };
      },
      (k, m) => s.api(KEYS[k], 'DELETE', `${files(m.key)}/${m.id}`),
      (m) => dropChecklist(m.key),
    ),
  });
  // Files and a table where the read differs by key: Employee Onboarding (Operations RunAndView: Mia; Nora and
  // Paula neither in Operations nor assigned). Its Table field is on "Set up equipment", behind the stop task
  // "Manager approval": the setup completes the stop task so the task is not halted. Not `clean`: starting an
  // Onboarding checklist queues the fixture's new_checklist delivery.
  const readsOnboarding = readsVendor;
  const agreement = DEMO.tasks.contractorAgreement;
  const agreementFile = '22000000-0000-4000-8000-000000000105';
  const equipment = DEMO.tasks.setUpEquipment;
  const table = '22000000-0000-4000-8000-000000000109';
  const onboardingFiles = (key: string) => `/v3/checklists/${key}/tasks/${agreement}/fields/${agreementFile}/files`;
  const onOnboarding = <T>(prepare: (key: string) => Promise<T>, act: (k: KeyName, key: string, made: T) => Promise<Answer>) =>
    fresh(
      async () => {
        const key = await makeChecklist(DEMO.onboarding);
        return { key, made: await prepare(key) };
      },
      (k, m) => act(k, m.key, m.made),
      (m) => dropChecklist(m.key),
    );
  rows.push({ op: 'listFieldFiles', label: 'Employee Onboarding task (5.4 read)', expect: (k) => (readsOnboarding(k) ? 'ok' : 'FORBIDDEN'), call: onOnboarding(async () => undefined, (k, key) => s.api(KEYS[k], 'GET', onboardingFiles(key))) });
  rows.push({ op: 'addFieldFile', label: 'Employee Onboarding task (5.8 last row)', expect: answers(readsOnboarding), call: onOnboarding(async () => undefined, (k, key) => s.api(KEYS[k], 'POST', onboardingFiles(key), pdf)) });
  rows.push({
    op: 'removeFieldFile',
    label: "Employee Onboarding task, Ada's file (5.8 last row)",
    expect: answers(readsOnboarding),
    call: onOnboarding(async (key) => ok(await asAdmin('POST', onboardingFiles(key), pdf), 'file').body.id as number, (k, key, id) => s.api(KEYS[k], 'DELETE', `${onboardingFiles(key)}/${id}`)),
  });
  const rowsOf = (key: string) => `/v3/checklists/${key}/tasks/${equipment}/fields/${table}/rows`;
  const unhalted = async (key: string) => {
    ok(await asAdmin('POST', `/v3/checklists/${key}/tasks/${DEMO.tasks.managerApproval}/complete`), 'complete the stop task');
    ok(await asAdmin('POST', rowsOf(key), { rows: [['Laptop']] }), 'a table row');
  };
  rows.push({ op: 'addTableRows', label: 'Employee Onboarding task, not halted (5.8 last row)', expect: answers(readsOnboarding), call: onOnboarding(unhalted, (k, key) => s.api(KEYS[k], 'POST', rowsOf(key), { rows: [['Phone']] })) });
  rows.push({ op: 'setTableCells', label: 'Employee Onboarding task, not halted (5.8 last row)', expect: answers(readsOnboarding), call: onOnboarding(unhalted, (k, key) => s.api(KEYS[k], 'PATCH', rowsOf(key), { cells: [{ rowIndex: 1, columnIndex: 1, value: 'Desk' }] })) });
  rows.push({ op: 'removeTableRows', label: 'Employee Onboarding task, not halted (5.8 last row)', expect: answers(readsOnboarding), call: onOnboarding(unhalted, (k, key) => s.api(KEYS[k], 'DELETE', `${rowsOf(key)}?rowIndexes=1`)) });

  // 5.8 last row "task behind an incomplete halt task is 409" (5.10: settings apply to every key): the same
  // table write while "Manager approval" is not complete; keys refused 403 are refused first.
  rows.push({
    op: 'addTableRows',
    label: 'Employee Onboarding task, halted (5.8 last row: 409)',
    expect: (k) => (answers(readsOnboarding)(k) === 'ok' ? 'CONFLICT' : 'FORBIDDEN'),
    call: onOnboarding(async () => undefined, (k, key) => s.api(KEYS[k], 'POST', rowsOf(key), { rows: [['Phone']] })),
  });

  // ── the standalone twins of the task routes (/v3/tasks/{taskKey}, docs/tasks.md; an unattached task): reads as
  // the standalone read (5.4, docs/checklists.md); status writes by its readers, the workspace key only on tasks it
  // raised (5.9); assign and date by readers, never the workspace key (5.8 row 2); comment, tag: any key (5.8);
  // delete a comment: its author or an Administrator (5.8); snoozes a person's (5.8, 5.9).
  const TWIN_TASKS: Sa[] = [...TASKS, { by: 'admin', assignees: ['planner'] }];
  const saReadCell = (sa: Sa) => (k: KeyName): Cell => (saRead(k, sa) ? 'ok' : 'FORBIDDEN');
  const saRun = (sa: Sa) => (k: KeyName): Cell => (saRead(k, sa) && (!isWorkspace(k) || sa.by === 'workspace') ? 'ok' : 'FORBIDDEN');
  const saAssign = (sa: Sa) => (k: KeyName): Cell => (saRead(k, sa) && !isWorkspace(k) ? 'ok' : 'FORBIDDEN');
  const saSnooze = (sa: Sa) => (k: KeyName): Cell => (isWorkspace(k) ? 'API_KEY_ACTS_AS_WORKSPACE' : saRead(k, sa) ? 'ok' : 'FORBIDDEN');
  const twoSteps = (first: [string, string, unknown?], second: [string, string, unknown?]) => async (k: KeyName, key: string) => {
    const a = await s.api(KEYS[k], first[0], `/v3/tasks/${key}${first[1]}`, first[2]);
    if (a.status >= 300) return a;
    return s.api(KEYS[k], second[0], `/v3/tasks/${key}${second[1]}`, second[2]);
  };
  for (const sa of TWIN_TASKS) {
    const onTask = <T = string>(act: (k: KeyName, made: T) => Promise<Answer>, prepare?: (key: string) => Promise<T>) =>
      fresh(async () => (prepare ? prepare(await makeTask(sa)) : ((await makeTask(sa)) as T)), act, async (m: T) => dropTask(typeof m === 'string' ? m : (m as { key: string }).key));
    const L = saLabel(sa);
    for (const [op, suffix] of [['getStandaloneTaskAssignees', '/assignees'], ['getStandaloneTaskDueDate', '/due-date'], ['listStandaloneTaskComments', '/comments'], ['getStandaloneTaskActivity', '/activity'], ['listStandaloneTaskFields', '/fields']]) {
      rows.push({ op, label: `${L} (5.4)`, clean: true, expect: saReadCell(sa), call: onTask((k, key) => s.api(KEYS[k], 'GET', `/v3/tasks/${key}${suffix}`)) });
    }
    // Not `clean`: completing queues the delivery of the fixture's task_completed webhook.
    rows.push({ op: 'completeStandaloneTask+uncompleteStandaloneTask', label: `${L} (5.8 row 1, 5.9)`, expect: saRun(sa), call: onTask(twoSteps(['POST', '/complete'], ['DELETE', '/complete'])) });
    rows.push({ op: 'setStandaloneTaskNotApplicable+clearStandaloneTaskNotApplicable', label: `${L} (5.8 row 1, 5.9)`, clean: true, expect: saRun(sa), call: onTask(twoSteps(['POST', '/not-applicable'], ['DELETE', '/not-applicable'])) });
    rows.push({ op: 'setStandaloneTaskAssignees', label: `${L} (5.8 row 2)`, clean: true, expect: saAssign(sa), call: onTask((k, key) => s.api(KEYS[k], 'PUT', `/v3/tasks/${key}/assignees`, { assignees: [{ type: 'TeamMember', id: DEMO.members.ada }] })) });
    rows.push({ op: 'setStandaloneTaskDueDate', label: `${L} (5.8 row 2)`, clean: true, expect: saAssign(sa), call: onTask((k, key) => s.api(KEYS[k], 'PUT', `/v3/tasks/${key}/due-date`, { dueDateTime: '2031-01-01T00:00:00Z' })) });
    rows.push({ op: 'clearStandaloneTaskAssignees', label: `${L} (5.8 row 2)`, clean: true, expect: saAssign(sa), call: onTask((k, key) => s.api(KEYS[k], 'DELETE', `/v3/tasks/${key}/assignees`)) });
    rows.push({
      op: 'clearStandaloneTaskDueDate',
      label: `${L}, dated (5.8 row 2)`,
      clean: true,
      expect: saAssign(sa),
      call: onTask(
        (k, key) => s.api(KEYS[k], 'DELETE', `/v3/tasks/${key}/due-date`),
        async (key) => {
          ok(await asAdmin('PUT', `/v3/tasks/${key}/due-date`, { dueDateTime: '2031-01-01T00:00:00Z' }), 'date');
          return key;
        },
      ),
    });
    rows.push({ op: 'setStandaloneTaskSnooze+endStandaloneTaskSnooze', label: `${L} (5.8 snooze)`, clean: true, expect: saSnooze(sa), call: onTask(twoSteps(['PUT', '/snooze', { snoozedUntil: '2031-01-01T00:00:00Z' }], ['DELETE', '/snooze'])) });
    rows.push({ op: 'getStandaloneTaskSnooze', label: `${L} (5.8: own snooze)`, clean: true, expect: rules.person, call: onTask((k, key) => s.api(KEYS[k], 'GET', `/v3/tasks/${key}/snooze`)) });
    rows.push({ op: 'endStandaloneTaskSnooze', label: `${L} (5.8: own snooze, whatever the visibility)`, clean: true, expect: rules.person, call: onTask((k, key) => s.api(KEYS[k], 'DELETE', `/v3/tasks/${key}/snooze`)) });
    rows.push({ op: 'addStandaloneTaskComment+removeStandaloneTaskComment', label: `${L}, own comment (5.8: any key; its author)`, clean: true, expect: rules.anyone, call: onTask(async (k, key) => {
      const c = await s.api(KEYS[k], 'POST', `/v3/tasks/${key}/comments`, { text: 'mine' });
      if (c.status >= 300) return c;
      return s.api(KEYS[k], 'DELETE', `/v3/tasks/${key}/comments/${c.body.id}`);
    }) });
    rows.push({
      op: 'removeStandaloneTaskComment',
      label: `${L}, Ada's comment (5.8: author or Administrator)`,
      clean: true,
      expect: (k) => (isAdmin(k) ? 'ok' : 'FORBIDDEN'),
      call: onTask(
        (k, m: { key: string; id: number }) => s.api(KEYS[k], 'DELETE', `/v3/tasks/${m.key}/comments/${m.id}`),
        async (key) => ({ key, id: ok(await asAdmin('POST', `/v3/tasks/${key}/comments`, { text: 'matrix' }), 'comment').body.id as number }),
      ),
    });
  }
  // An attached standalone task reads as its checklist on every route (5.4; docs/tasks.md): attached by Ada to an
  // Employee Onboarding checklist, its raiser's rule no longer applies. Not `clean`: the Onboarding delivery.
  const onAttached = (act: (k: KeyName, task: string) => Promise<Answer>) =>
    onOnboarding(async (key) => {
      const task = await makeTask({ by: 'admin', assignees: [] });
      ok(await asAdmin('PUT', `/v3/tasks/${task}/attachment`, { checklistKey: key }), 'attach');
      return task;
    }, async (k, _key, task) => {
      try {
        return await act(k, task);
      } finally {
        await dropTask(task);
      }
    });
  for (const [op, suffix] of [['getStandaloneTask', ''], ['getStandaloneTaskActivity', '/activity'], ['listStandaloneTaskComments', '/comments']]) {
    rows.push({ op, label: 'raised by admin, attached to Employee Onboarding (5.4: as its checklist)', expect: (k) => (readsOnboarding(k) ? 'ok' : 'FORBIDDEN'), call: onAttached((k, task) => s.api(KEYS[k], 'GET', `/v3/tasks/${task}${suffix}`)) });
  }
  // A standalone task has no template, so it has no field (docs/tasks.md): the field, file and row twins show the
  // read rule (5.4), checked before the field is looked up (404 FIELD_NOT_FOUND; a list of answers naming no
  // field is 400, like any unknown key in a body).
  const anyField = vendorName;
  const FIELD_TWINS: [string, string, string, unknown?][] = [
    ['getStandaloneTaskField', 'GET', `/fields/${anyField}`],
    ['answerStandaloneTaskField', 'PUT', `/fields/${anyField}`, { value: 'matrix' }],
    ['answerStandaloneTaskFields', 'PATCH', '/fields', { fields: [{ key: anyField, value: 'matrix' }] }],
    ['listFieldFilesOfStandaloneTask', 'GET', `/fields/${anyField}/files`],
    ['addFieldFileOfStandaloneTask', 'POST', `/fields/${anyField}/files`, pdf],
    ['removeFieldFileOfStandaloneTask', 'DELETE', `/fields/${anyField}/files/1`],
    ['addTableRowsOfStandaloneTask', 'POST', `/fields/${anyField}/rows`, { rows: [['Phone']] }],
    ['setTableCellsOfStandaloneTask', 'PATCH', `/fields/${anyField}/rows`, { cells: [{ rowIndex: 1, columnIndex: 1, value: 'Desk' }] }],
    ['removeTableRowsOfStandaloneTask', 'DELETE', `/fields/${anyField}/rows?rowIndexes=1`],
  ];
  for (const [op, method, suffix, body] of FIELD_TWINS) {
    const lookup = op === 'answerStandaloneTaskFields' ? 'VALIDATION_ERROR' : 'FIELD_NOT_FOUND';
    rows.push({
      op,
      label: `${saLabel(saAdmin)}, a field it cannot have (5.4 read first)`,
      clean: true,
      expect: (k) => (saRead(k, saAdmin) ? lookup : 'FORBIDDEN'),
      call: fresh(() => makeTask(saAdmin), (k, key) => s.api(KEYS[k], method, `/v3/tasks/${key}${suffix}`, body), dropTask),
    });
  }
});
after(() => s.close());

test('5.4-5.9: every cell of the permission matrix is as spec 5 says (every fixture key)', async () => {
  const keys = Object.keys(KEYS).filter((k) => !k.startsWith('globex')) as KeyName[];
  const table: string[] = [`| operation | resource | ${keys.join(' | ')} |`, `|---|---|${keys.map(() => '---').join('|')}|`];
  const wrong: string[] = [];
  for (const row of rows) {
    const cells: string[] = [];
    const before = row.clean ? dataDigests() : undefined;
    for (const k of keys) {
      const legacy = row.op.startsWith('legacy');
      const want: Cell = UNAUTHENTICATED[k] ? (legacy ? 'LEGACY_401' : UNAUTHENTICATED[k]!) : row.expect(k);
      // Revoked and expired keys count towards the invalid-key throttle (spec v3 8): let its minute pass.
      if (UNAUTHENTICATED[k]) s.emu.clock.advance(61_000);
      const r = await row.call(k);
      const got: Cell = r.status < 300 ? 'ok' : (r.body?.error?.code ?? String(r.status));
      cells.push(got === want ? got : `**${got}** (spec: ${want})`);
      if (got !== want) wrong.push(`${row.op} ${row.label} with ${k}: got ${got} (${r.status} ${r.text.slice(0, 200)}), spec 5 says ${want}`);
      if (want === 'FORBIDDEN') assert.equal(r.status, 403, `${row.op} ${k}`);
    }
    if (before) {
      const now = dataDigests();
      const changed = Object.keys(before).filter((t) => before[t] !== now[t]);
      if (changed.length) wrong.push(`${row.op} ${row.label}: left the data changed (${changed.join(', ')})`);
    }
    table.push(`| ${row.op} | ${row.label} | ${cells.join(' | ')} |`);
  }
  if (process.env.MATRIX_PRINT) process.stderr.write(table.join('\n') + '\n');
  assert.deepEqual(wrong, [], table.join('\n'));
  const covered = new Set(rows.flatMap((r) => r.op.split('+')));
  const uncovered = s.emu.ops.filter((o) => !covered.has(o.id) && !o.path.startsWith('/v3/schema/') && !NOT_IN_MATRIX.some(([re]) => re.test(o.id))).map((o) => o.id);
  // Every operation of the table has a row (or a reason above): a new operation fails here until it gets one.
  assert.deepEqual(uncovered, [], `operations with no row in the permission matrix: ${uncovered.join(', ')}`);
  if (process.env.MATRIX_PRINT) for (const [re, why] of NOT_IN_MATRIX) process.stderr.write(`permissions matrix: not here: ${re.source}: ${why}\n`);
});
