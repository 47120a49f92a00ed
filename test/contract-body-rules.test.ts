// Issue 39: the rules across properties of a body that the document declares (an operation's
// `bodyRule`, and the rules on nested objects) hold the server to them both ways: a body the
// declared schema refuses is refused by the server (400 VALIDATION_ERROR), and one it accepts
// is not refused for that rule. So the declaration and the domain's checks cannot drift apart.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { startTestServer, KEYS, DEMO, type TestServer } from './helpers/server';

let s: TestServer;
let doc: any;
const ajv = new Ajv2020({ strict: false });
addFormats(ajv);

before(async () => {
  s = await startTestServer();
  doc = (await s.api(null, 'GET', '/v3/openapi.json')).body;
});
after(async () => {
  await s?.close();
});

const bodySchema = (path: string, method: string) => doc.paths[path][method].requestBody.content['application/json'].schema;

interface Case {
  body: Record<string, unknown>;
  /** Whether the declared schema accepts it. */
  valid: boolean;
}

/** Each case: the document's verdict as said, and the server's the same (a refusal is 400 VALIDATION_ERROR). */
async function holds(path: string, method: string, url: string, cases: Case[], key: string = KEYS.admin) {
  const validate = ajv.compile(bodySchema(path, method));
  for (const c of cases) {
    assert.equal(validate(c.body), c.valid, `the document on ${JSON.stringify(c.body)}: ${ajv.errorsText(validate.errors)}`);
    const r = await s.api(key, method.toUpperCase(), url, c.body);
    if (c.valid) assert.ok(r.status < 400 || r.body.error.code !== 'VALIDATION_ERROR', `${url} ${JSON.stringify(c.body)} was refused: ${r.text}`);
    else assert.equal(r.status, 400, `${url} ${JSON.stringify(c.body)}: ${r.text}`);
  }
}

test('issue 39, 4.4: upgrade_checklists: exactly one of checklistKeys and all: true, in the document and on the server', async () => {
  await holds('/v3/templates/{key}/upgrades', 'post', `/v3/templates/${DEMO.onboarding}/upgrades`, [
    { body: {}, valid: false },
    { body: { version: 2 }, valid: false },
    { body: { all: false }, valid: false },
    { body: { checklistKeys: [DEMO.janeDoe], all: true }, valid: false },
    { body: { checklistKeys: [DEMO.janeDoe], all: false }, valid: true },
    { body: { checklistKeys: [] }, valid: true },
    { body: { all: true, version: 2 }, valid: true },
  ]);
});

test('issue 39: comments: html or text, not both; something to say or an attachment', async () => {
  const url = `/v3/checklists/${DEMO.janeDoe}/tasks/${DEMO.tasks.collectDetails}/comments`;
  await holds('/v3/checklists/{checklistKey}/tasks/{taskKey}/comments', 'post', url, [
    { body: {}, valid: false },
    { body: { html: '<p>a</p>', text: 'a' }, valid: false },
    { body: { text: '   ' }, valid: false },
    { body: { text: 'Looks good' }, valid: true },
    { body: { html: '<p>Looks good</p>' }, valid: true },
    { body: { attachment: { name: 'a.txt', contentType: 'text/plain', data: 'aGk=' } }, valid: true },
  ]);
});

test('issue 39: drafts: templateKey or document, not both; version only with templateKey', async () => {
  await holds('/v3/drafts', 'post', '/v3/drafts', [
    { body: { templateKey: DEMO.onboarding, document: { name: 'x' } }, valid: false },
    { body: { version: 1 }, valid: false },
    { body: { templateKey: DEMO.onboarding, version: 1 }, valid: true },
    { body: { document: { name: 'Draft rule' } }, valid: true },
  ]);
});

test('issue 39, 4.6: saved views: allTemplates or templates, allAssignees or assignees, visibleTo only for UsersGroups', async () => {
  await holds('/v3/my-work/views', 'post', '/v3/my-work/views', [
    { body: { name: 'R1', allTemplates: true, templates: [DEMO.onboarding] }, valid: false },
    { body: { name: 'R2', allAssignees: true, assignees: [{ type: 'TeamMember', id: 103 }] }, valid: false },
    { body: { name: 'R3', type: 'Team', visibleTo: [{ type: 'Group', id: 301 }] }, valid: false },
    { body: { name: 'R4', visibleTo: [] }, valid: false },
    { body: { name: 'R5', statuses: [] }, valid: false },
    { body: { name: '  ' }, valid: false },
    { body: { name: 'R6', allTemplates: false, templates: [DEMO.onboarding], allAssignees: true, assignees: [] }, valid: true },
    { body: { name: 'R7', type: 'UsersGroups', visibleTo: [{ type: 'Group', id: 301 }] }, valid: true },
  ]);
});

test('issue 39, 2.4: naming an assignee: {type, id} or {name}, in the document and on the server', async () => {
  const url = `/v3/checklists/${DEMO.janeDoe}/tasks/${DEMO.tasks.collectDetails}/assignees`;
  await holds('/v3/checklists/{checklistKey}/tasks/{taskKey}/assignees', 'put', url, [
    { body: { assignees: [{}] }, valid: false },
    { body: { assignees: [{ id: 103 }] }, valid: false },
    { body: { assignees: [{ type: 'TeamMember', id: 103 }] }, valid: true },
    { body: { assignees: [{ name: 'Ada Admin' }] }, valid: true },
  ]);
});

test('issue 39: search conditions: exactly one of fieldKey and fieldName; value except for isEmpty and isNotEmpty', async () => {
  await holds('/v3/checklists/search', 'post', '/v3/checklists/search', [
    { body: { fields: [{ value: 'x' }] }, valid: false },
    { body: { fields: [{ fieldName: 'Employee ID', fieldKey: '22000000-0000-4000-8000-000000000101', value: 'x' }] }, valid: false },
    { body: { fields: [{ fieldName: 'Employee ID', operator: 'isEmpty', value: 'x' }] }, valid: false },
    { body: { fields: [{ fieldName: 'Employee ID', operator: 'contains' }] }, valid: false },
    { body: { fields: [{ fieldName: 'Employee ID', value: 'E1' }] }, valid: true },
    { body: { fields: [{ fieldKey: '22000000-0000-4000-8000-000000000101', operator: 'isNotEmpty' }] }, valid: true },
  ]);
});

test('issue 39: webhooks: the scopes each event allows, key omitted only for Workspace', async () => {
  await holds('/v3/webhooks', 'post', '/v3/webhooks', [
    { body: { eventType: 'data_set.record.deleted', targetUrl: 'https://example.test/a', scope: { type: 'Task', key: DEMO.tasks.collectDetails } }, valid: false },
    { body: { eventType: 'task_completed', targetUrl: 'https://example.test/a', scope: { type: 'Workspace', key: DEMO.onboarding } }, valid: false },
    { body: { eventType: 'task_completed', targetUrl: 'https://example.test/a', scope: { type: 'Template' } }, valid: false },
    { body: { eventType: 'new_checklist', targetUrl: 'https://example.test/a' }, valid: false },
    { body: { eventType: 'new_checklist', targetUrl: 'https://example.test/a', scope: { type: 'Template', key: DEMO.onboarding } }, valid: true },
    { body: { eventType: 'task_completed', targetUrl: 'https://example.test/a' }, valid: true },
  ]);
});

test('issue 39, 2.5: template permission rules: assigneeId absent for AllUsers, required for a member or group', async () => {
  await holds('/v3/templates/{key}/permissions', 'put', `/v3/templates/${DEMO.expense}/permissions`, [
    { body: { permissions: [{ assigneeType: 'AllUsers', assigneeId: 103, permission: 'ViewOnly' }] }, valid: false },
    { body: { permissions: [{ assigneeType: 'Group', permission: 'ViewOnly' }] }, valid: false },
    { body: { permissions: [{ assigneeType: 'AllUsers', permission: 'ViewOnly' }, { assigneeType: 'Group', assigneeId: 301, permission: 'RunAndView' }] }, valid: true },
  ]);
});

test('issue 39, 4.1 rule 8: a name that cannot be cleared is declared not null, and null is refused', async () => {
  await holds('/v3/checklists/{checklistKey}', 'patch', `/v3/checklists/${DEMO.johnRoe}`, [
    { body: { name: null }, valid: false },
    { body: { name: '  ' }, valid: false },
    { body: { name: 'John Roe onboarding' }, valid: true },
  ]);
});
