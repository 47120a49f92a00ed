// Sample calls per operation id, for the table-driven parity tests of spec v3 4.6
// (test/mcp-parity.test.ts): every operation with an MCP tool must have an entry,
// or the parity test fails and names it. Other areas add their operations here.
//
// `ok` is a call that succeeds, `refusal` one that is refused by the operation
// itself (400/403/404/409/422...), not by the key. Keys are fixture keys (KEYS).
// A write sample must leave the database as it found it, or be harmless to
// repeat: each sample runs once over REST, then over MCP HTTP and stdio.
// A sample that needs something made first (a draft, a comment) names it in
// `setup`; one that uses it up (a delete) sets `setupEachCall`.
import { DEMO, KEYS } from './server';

/** REST as the fixture Administrator (KEYS.admin), for setup: answers the body; throws unless 2xx. */
export type SetupRest = (method: string, path: string, body?: unknown) => Promise<any>;

export interface SampleCall {
  key?: string; // default KEYS.admin
  args: Record<string, unknown>;
  /**
   * Runs before the REST call, once per transport, and its answer is merged over `args`; the
   * REST call and the tool call then name the same thing (a draft key, a comment id).
   */
  setup?: (rest: SetupRest) => Promise<Record<string, unknown>>;
  /** Run `setup` again before the tool call: for samples that use up what they name (a delete). */
  setupEachCall?: boolean;
  /** Drop properties that legitimately differ between two calls (timestamps of created things). */
  normalize?: (body: unknown) => unknown;
}

/**
 * For an operation the operation itself can refuse nothing: a GET whose every argument is an
 * optional boolean (REST reads any value but `true` as false) or that takes none. The test
 * checks that claim against the operation's input shape.
 */
export interface NoRefusal {
  none: string;
}

export interface OpSample {
  ok: SampleCall;
  refusal: SampleCall | NoRefusal;
}

/** normalize: drops the named top-level properties. */
export const without =
  (...names: string[]) =>
  (body: unknown): unknown =>
    body && typeof body === 'object' && !Array.isArray(body) ? Object.fromEntries(Object.entries(body).filter(([k]) => !names.includes(k))) : body;

/** normalize: drops the named properties at every depth (new keys of a created template's tasks). */
export const withoutDeep =
  (...names: string[]) =>
  (body: unknown): unknown => {
    if (Array.isArray(body)) return body.map(withoutDeep(...names));
    if (body && typeof body === 'object') return Object.fromEntries(Object.entries(body).filter(([k]) => !names.includes(k)).map(([k, v]) => [k, withoutDeep(...names)(v)]));
    return body;
  };

const NOWHERE = '99999999-9999-4999-8999-999999999999';
const TASK = `/v3/checklists/${DEMO.janeDoe}/tasks/${DEMO.tasks.managerApproval}`;
/** The task the task-write samples work on: incomplete, unassigned, no due date, no required field (a stop task). */
const task = { checklistKey: DEMO.janeDoe, taskKey: DEMO.tasks.managerApproval };
const noSchemaRefusal: NoRefusal = { none: 'takes no arguments' };

/** A draft of its own for one sample (the drafts the samples make are left; they are harmless). */
const newDraft = (document: unknown = { name: 'Parity draft', tasks: [{ name: 'Step one' }] }) => async (rest: SetupRest) => ({ key: (await rest('POST', '/v3/drafts', { document })).key as string });

async function committedDraft(rest: SetupRest) {
  const { key } = await newDraft({ name: 'Parity commit', tasks: [] })(rest);
  await rest('POST', `/v3/drafts/${key}/commit`);
  for (let i = 0; i < 100; i++) {
    const { state } = await rest('GET', `/v3/drafts/${key}/commit`);
    if (state === 'succeeded') return { key };
    if (state !== 'pending') throw new Error(`the commit of draft ${key} ${state}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`the commit of draft ${key} did not finish`);
}

export const opSamples: Record<string, OpSample> = {
  listMembers: {
    ok: { args: { search: 'a', sort: 'email:desc', pageSize: 3, includeInactive: true } },
    refusal: { args: { role: 'Owner' } },
  },
  getMember: {
    ok: { key: KEYS.member, args: { memberId: DEMO.members.smith } },
    refusal: { args: { memberId: DEMO.members.gina } },
  },
  listGroups: {
    ok: { args: { sort: 'name:desc', pageSize: 2 } },
    refusal: { args: { sort: 'size' } },
  },
  getGroup: {
    ok: { key: KEYS.workspace, args: { groupId: DEMO.groups.operations } },
    refusal: { args: { groupId: 999 } },
  },
  listTags: {
    ok: { args: { sort: 'usage:desc', pageSize: 500 } },
    refusal: { args: { after: 'not-a-cursor' } },
  },
  // ── templates (4.4) ──
  listTemplates: {
    ok: { key: KEYS.member, args: { includeArchived: true, includeAllVersions: true } },
    refusal: { none: 'its only arguments are optional booleans, and REST reads any value but true as false' },
  },
  validateTemplate: {
    ok: { args: { document: { name: 'Parity', tasks: [{ name: 'One' }, { name: 'Two', fields: [{ type: 'Nope' }] }] } } },
    refusal: { args: { document: { name: 'Parity', tasks: [] }, forTemplate: NOWHERE } },
  },
  getTemplate: {
    ok: { key: KEYS.member, args: { key: DEMO.onboarding, version: 1 } },
    refusal: { args: { key: DEMO.onboarding, version: 9 } },
  },
  createTemplate: {
    ok: { args: { document: { name: 'Parity created', tags: ['parity'], tasks: [{ name: 'One', fields: [{ type: 'ShortText', label: 'Name' }] }] } }, normalize: withoutDeep('key', 'url', 'createdDateTime') },
    refusal: { args: { document: { name: 'Parity', tasks: 5 } } },
  },
  exportTemplate: {
    ok: { args: { key: DEMO.onboarding } },
    refusal: { args: { key: NOWHERE } },
  },
  createTemplateVersion: {
    // Publishes v2, v3... of a template made for the sample: the version and its time differ per call.
    ok: {
      args: { document: { name: 'Parity versions', description: 'Next version', tasks: [] } },
      setup: async (rest) => ({ key: (await rest('POST', '/v3/templates', { name: 'Parity versions', tasks: [] })).key }),
      normalize: without('version', 'latestVersion', 'createdDateTime'),
    },
    refusal: { args: { key: DEMO.onboarding, document: { name: 'Parity', tasks: [{ name: 'x', id: NOWHERE }] } } },
  },
  // ── upgrades (4.4): a read, and an upgrade that queues nothing (harmless to repeat) ──
  listChecklistUpgrades: {
    ok: { key: KEYS.member, args: { key: DEMO.onboarding, version: 1, pageSize: 1 } },
    refusal: { args: { key: DEMO.onboarding, version: 9 } },
  },
  upgradeChecklists: {
    ok: { args: { key: DEMO.onboarding, checklistKeys: [DEMO.johnRoe, DEMO.archivedOnboarding, DEMO.johnRoe] } },
    refusal: { args: { key: DEMO.onboarding, checklistKeys: [DEMO.janeDoe], all: true } },
  },
  listTemplateVersions: {
    ok: { key: KEYS.member, args: { key: DEMO.onboarding } },
    refusal: { args: { key: NOWHERE } },
  },
  copyTemplate: {
    ok: { args: { key: DEMO.expense, name: 'Expense Report (parity copy)', version: 1 }, normalize: withoutDeep('key', 'url', 'createdDateTime') },
    refusal: { args: { key: DEMO.expense, folder: 'No such folder' } },
  },
  archiveTemplate: {
    ok: { args: { key: DEMO.oldProcess, archived: true } }, // already archived: harmless to repeat
    refusal: { key: KEYS.member, args: { key: DEMO.oldProcess, archived: true } },
  },
  listTemplatePermissions: {
    ok: { args: { key: DEMO.onboarding } },
    refusal: { args: { key: NOWHERE } },
  },
  setTemplatePermissions: {
    // The rules it already has: the database is left as found.
    ok: { args: { key: DEMO.onboarding, permissions: [{ assigneeType: 'Group', assigneeId: DEMO.groups.operations, name: 'ignored', permission: 'RunAndView' }] } },
    refusal: { args: { key: DEMO.onboarding, permissions: [{ assigneeType: 'Group', assigneeId: 999, permission: 'RunAndView' }] } },
  },
  // ── template drafts (4.4 rule 4) ──
  createTemplateDraft: {
    ok: { args: { templateKey: DEMO.expense, version: 1 }, normalize: without('key', 'createdDateTime', 'updatedDateTime') },
    refusal: { args: { version: 1 } },
  },
  getTemplateDraft: {
    ok: { args: {}, setup: newDraft() },
    refusal: { key: KEYS.member, args: {}, setup: newDraft() }, // another member's draft: 403
  },
  updateTemplateDraft: {
    ok: { args: { patch: { description: 'Patched', tasks: [{ name: 'Step one' }, { name: 'Step two' }] } }, setup: newDraft(), normalize: without('updatedDateTime') },
    refusal: { args: {}, setup: newDraft() }, // no patch
  },
  validateTemplateDraft: {
    ok: { args: {}, setup: newDraft({ name: 'Parity draft', tasks: [{ name: 'Step one', fields: [{ type: 'Date', mode: 'sometimes' }] }] }) },
    refusal: { args: { key: NOWHERE } },
  },
  commitTemplateDraft: {
    // A draft per call: a second commit of one draft could find the first still running.
    ok: { args: {}, setup: newDraft({ name: 'Parity commit', tasks: [] }), setupEachCall: true, normalize: without('draftKey', 'requestedDateTime') },
    refusal: { key: KEYS.member, args: {}, setup: newDraft() },
  },
  getCommitStatus: {
    ok: { args: {}, setup: committedDraft },
    refusal: { args: {}, setup: newDraft() }, // never committed: 404 COMMIT_NOT_FOUND
  },
  deleteTemplateDraft: {
    ok: { args: {}, setup: newDraft(), setupEachCall: true },
    refusal: { args: { key: NOWHERE } },
  },
  // ── schema (4.4 rule 4) ──
  getTemplateSchema: { ok: { key: KEYS.member, args: {} }, refusal: noSchemaRefusal },
  getAuthoringGuide: { ok: { args: {} }, refusal: noSchemaRefusal },
  listContentTypes: { ok: { args: {} }, refusal: noSchemaRefusal },
  describeContentType: {
    ok: { args: { type: 'DropDown' } },
    refusal: { args: { type: 'Nope' } },
  },
  listConditionOperators: { ok: { args: {} }, refusal: noSchemaRefusal },
  listDueDateScenarios: { ok: { args: {} }, refusal: noSchemaRefusal },
  // ── checklist tasks (4.3) ──
  // The writes run in table order on one task and each set is followed by its clear, so
  // the task ends as it began (complete → uncomplete, not applicable → clear, ...).
  listChecklistTasks: {
    ok: { key: KEYS.member, args: { checklistKey: DEMO.janeDoe, status: 'incomplete, not-applicable' } },
    refusal: { args: { checklistKey: DEMO.janeDoe, status: 'Done' } },
  },
  getTask: {
    ok: { args: { checklistKey: DEMO.janeDoe, taskKey: DEMO.tasks.collectDetails } },
    refusal: { args: { checklistKey: DEMO.expenseMarch, taskKey: DEMO.tasks.collectDetails } },
  },
  completeTask: {
    ok: { args: task },
    refusal: { args: { checklistKey: DEMO.janeDoe, taskKey: DEMO.tasks.contractorAgreement } }, // hidden by a condition: 409
  },
  uncompleteTask: {
    ok: { args: task },
    refusal: { args: { checklistKey: DEMO.janeDoe, taskKey: DEMO.tasks.heading } },
  },
  setTaskNotApplicable: {
    ok: { args: task },
    refusal: { args: { checklistKey: DEMO.janeDoe, taskKey: DEMO.tasks.heading } },
  },
  clearTaskNotApplicable: {
    ok: { args: task },
    refusal: { args: { checklistKey: NOWHERE, taskKey: DEMO.tasks.managerApproval } },
  },
  setTaskAssignees: {
    ok: { args: { ...task, assignees: [{ type: 'TeamMember', id: DEMO.members.omar }, { name: 'Operations' }], isAssignedExclusively: false } },
    refusal: { args: { ...task, assignees: [{ name: 'Alex Kim' }] } }, // ambiguous: 400 listing both
  },
  clearTaskAssignees: {
    ok: { args: task },
    refusal: { args: { checklistKey: DEMO.janeDoe, taskKey: NOWHERE } },
  },
  setTaskDueDate: {
    ok: { args: { ...task, dueDateTime: '2030-03-02T10:00:00+01:00' } },
    refusal: { args: { ...task, dueDateTime: '2030-13-02' } },
  },
  clearTaskDueDate: {
    ok: { args: task },
    refusal: { args: { checklistKey: DEMO.janeDoe, taskKey: DEMO.tasks.heading } },
  },
  addTaskComment: {
    ok: { args: { ...task, text: 'Parity <check> & more' }, normalize: without('id', 'createdDateTime') },
    refusal: { args: { ...task, text: '' } },
  },
  removeTaskComment: {
    ok: {
      args: task,
      setup: async (rest) => ({ commentId: (await rest('POST', `${TASK}/comments`, { text: 'to be removed' })).id }),
      setupEachCall: true,
    },
    refusal: { args: { ...task, commentId: 999999 } },
  },
  getTaskSnooze: {
    ok: { key: KEYS.member, args: task },
    refusal: { args: { checklistKey: DEMO.expenseMarch, taskKey: DEMO.tasks.managerApproval } },
  },
  setTaskSnooze: {
    ok: { args: { ...task, snoozedUntil: '2099-01-01T09:00:00+02:00' } },
    refusal: { args: { ...task, snoozedUntil: '2001-01-01T00:00:00Z' } },
  },
  endTaskSnooze: {
    ok: { args: task },
    refusal: { args: { checklistKey: DEMO.janeDoe, taskKey: NOWHERE } },
  },
  addTaskTags: {
    ok: { args: { ...task, tags: [' parity ', 'parity'] } },
    refusal: { args: { ...task, tags: [] } },
  },
  removeTaskTag: {
    // Runs after addTaskTags: the task ends with the tags it began with.
    ok: { args: { ...task, name: 'parity' } },
    refusal: { args: { ...task, name: ' ' } },
  },
  getTaskActivity: {
    ok: { args: { ...task, pageSize: 2 } },
    refusal: { args: { ...task, after: 'not-a-cursor' } },
  },
  // Tasks grid (test/my-work*.test.ts). Mia's snooze samples are harmless to repeat; the views
  // the samples create are Private views nobody else lists (listMyWorkViews reads as Nora).
  listMyWork: {
    ok: { key: KEYS.member, args: { status: 'all', sort: 'name:asc', pageSize: 5 } },
    refusal: { key: KEYS.member, args: { status: 'Bogus' } },
  },
  snoozeTasks: {
    ok: { key: KEYS.member, args: { snoozedUntil: '2099-01-01T09:00:00Z', tasks: [{ taskKey: DEMO.tasks.collectDetails, checklistKey: DEMO.janeDoe }] } },
    refusal: { key: KEYS.member, args: { snoozedUntil: '2001-01-01T00:00:00Z', tasks: [{ taskKey: DEMO.tasks.collectDetails, checklistKey: DEMO.janeDoe }] } },
  },
  endSnoozeTasks: {
    ok: { key: KEYS.member, args: { tasks: [{ taskKey: DEMO.tasks.collectDetails, checklistKey: DEMO.janeDoe }] } },
    refusal: { key: KEYS.member, args: { tasks: [{ taskKey: NOWHERE, checklistKey: DEMO.janeDoe }] } },
  },
  listMyWorkViews: {
    ok: { key: KEYS.noperm, args: {} },
    refusal: noSchemaRefusal,
  },
  createMyWorkView: {
    ok: { key: KEYS.member, args: { name: 'Parity view', statuses: ['Overdue'] }, normalize: without('key') },
    refusal: { key: KEYS.member, args: { name: 'Parity view', type: 'Core' } },
  },
  updateMyWorkView: {
    ok: {
      args: { name: 'Parity view, replaced', sort: 'name:desc' },
      setup: async (rest) => ({ viewKey: (await rest('POST', '/v3/my-work/views', { name: 'Parity view to replace' })).key }),
      normalize: without('key'),
    },
    refusal: { args: { viewKey: '70000000-0000-4000-8000-000000000001', name: 'Core views are never written' } },
  },
  deleteMyWorkView: {
    ok: {
      args: {},
      setup: async (rest) => ({ viewKey: (await rest('POST', '/v3/my-work/views', { name: 'Parity view to delete' })).key }),
      setupEachCall: true,
    },
    refusal: { args: { viewKey: NOWHERE } },
  },
};
