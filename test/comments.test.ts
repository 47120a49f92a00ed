// Comments (spec v3 2.4 comment, 4.3, 5.8) and the naming rules for mentions.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, callTool, withoutRequestId, KEYS, type TestServer } from './helpers/server';
import { T, newChecklist, recordEvents, refused, taskPath, type RecordedEvent } from './helpers/tasks';

let s: TestServer;
let key: string;
let events: RecordedEvent[];
before(async () => {
  s = await startTestServer();
  events = recordEvents(s);
  key = await newChecklist(s, { name: 'Comments' });
});
after(async () => {
  await s.close();
});

const cp = (suffix = '') => taskPath(key, T.collectDetails, `/comments${suffix}`);

test('2.4 comment text: markup removed, paragraphs by a blank line, <br> as newline, mentions as the name written', async () => {
  events.length = 0;
  const html = '<p>Hello <b>team</b> &amp; welcome</p><p>Line one<br>Line two</p><p>Ping <span data-mention-type="TeamMember" data-mention-id="103">@Mia</span> and <a data-mention-type="Group" data-mention-id="301">@Ops team</a>, again <span data-mention-type="TeamMember" data-mention-id="103">@Mia M.</span></p>';
  const r = await s.api(KEYS.admin, 'POST', cp(), { html });
  assert.equal(r.status, 201, r.text);
  assert.equal(r.body.text, 'Hello team & welcome\n\nLine one\nLine two\n\nPing Mia and Ops team, again Mia M.');
  assert.equal(r.body.html, html, 'stored as sent');
  assert.deepEqual(r.body.mentions, [
    { id: 103, type: 'TeamMember', name: 'Mia' },
    { id: 301, type: 'Group', name: 'Ops team' },
  ]);
  assert.deepEqual(r.body.createdBy, { name: 'Ada Admin', email: 'ada@acme.test' });
  assert.ok(r.body.createdDateTime.endsWith('Z'));
  assert.equal(r.body.attachment, undefined);
  assert.deepEqual(Object.keys(r.body), ['id', 'text', 'html', 'createdBy', 'createdDateTime', 'mentions']);
  assert.deepEqual(events, [{ type: 'comment_created', subject: { commentId: r.body.id } }]);
});

test('2.4 comment: text instead of html is accepted and escaped', async () => {
  const r = await s.api(KEYS.member, 'POST', cp(), { text: 'a <b> & c\nnext line\n\nsecond' });
  assert.equal(r.status, 201);
  assert.equal(r.body.html, '<p>a &lt;b&gt; &amp; c<br>next line</p><p>second</p>');
  assert.equal(r.body.text, 'a <b> & c\nnext line\n\nsecond');
});

test('2.4 comment: attachment-only comment; attachment url needs no key', async () => {
  const r = await s.api(KEYS.member, 'POST', cp(), { attachment: { name: 'notes.txt', contentType: 'text/plain', data: Buffer.from('hi there').toString('base64') } });
  assert.equal(r.status, 201, r.text);
  assert.equal(r.body.text, '');
  assert.equal(r.body.html, undefined);
  assert.deepEqual(Object.keys(r.body.attachment), ['name', 'contentType', 'url']);
  assert.equal(r.body.attachment.name, 'notes.txt');
  const dl = await fetch(r.body.attachment.url);
  assert.equal(dl.status, 200);
  assert.equal(await dl.text(), 'hi there');
});

test('4.3 comments: list oldest first; task and detail sizes carry them; MCP add equals REST shape', async () => {
  const list = await s.api(KEYS.member, 'GET', cp());
  assert.equal(list.status, 200);
  const ids = list.body.comments.map((c: { id: number }) => c.id);
  assert.deepEqual(ids, [...ids].sort((a: number, b: number) => a - b));
  const detail = await s.api(KEYS.member, 'GET', taskPath(key, T.collectDetails));
  assert.deepEqual(detail.body.comments, list.body.comments);
  const c = await s.mcp(KEYS.member);
  const m = await callTool(c, 'add_task_comment', { checklistKey: key, taskKey: T.collectDetails, html: '<p>from MCP</p>' });
  assert.equal(m.isError, false, m.text);
  const again = await s.api(KEYS.member, 'GET', cp());
  assert.deepEqual(again.body.comments.at(-1), m.body);
});

test('4.3 comments: assignedMentioned mentions and assigns (task_assigned once per new assignee)', async () => {
  events.length = 0;
  const r = await s.api(KEYS.admin, 'POST', cp(), { html: '<p>Over to you</p>', assignedMentioned: [{ name: 'nora@acme.test' }, { type: 'TeamMember', id: 104 }] });
  assert.equal(r.status, 201, r.text);
  assert.deepEqual(r.body.mentions, [{ id: 104, type: 'TeamMember', name: 'Nora Noperm' }]);
  assert.deepEqual(events.map((e) => e.type), ['task_assigned', 'comment_created']);
  const a = await s.api(KEYS.admin, 'GET', taskPath(key, T.collectDetails, '/assignees'));
  assert.ok(a.body.assignees.some((x: { id: number }) => x.id === 104));
});

test('4.3 comment refusals: empty, both html and text, bad mentions, ambiguous names, deactivated members, bad attachment', async () => {
  await refused(s, () => s.api(KEYS.admin, 'POST', cp(), {}), 400, 'VALIDATION_ERROR', 'html');
  await refused(s, () => s.api(KEYS.admin, 'POST', cp(), { html: '<p> </p>' }), 400, 'VALIDATION_ERROR', 'html');
  await refused(s, () => s.api(KEYS.admin, 'POST', cp(), { text: '' }), 400, 'VALIDATION_ERROR', 'text');
  await refused(s, () => s.api(KEYS.admin, 'POST', cp(), { html: '<p>a</p>', text: 'a' }), 400, 'VALIDATION_ERROR', 'text');
  await refused(s, () => s.api(KEYS.admin, 'POST', cp(), { html: 42 }), 400, 'VALIDATION_ERROR', 'html');
  await refused(s, () => s.api(KEYS.admin, 'POST', cp(), { html: '<span data-mention-type="TeamMember" data-mention-id="106">@Dee</span>' }), 400, 'VALIDATION_ERROR');
  await refused(s, () => s.api(KEYS.admin, 'POST', cp(), { html: '<span data-mention-type="CurrentUser" data-mention-id="1">@me</span>' }), 400, 'VALIDATION_ERROR');
  const amb = await refused(s, () => s.api(KEYS.admin, 'POST', cp(), { html: '<p>x</p>', assignedMentioned: [{ name: 'alex kim' }] }), 400, 'VALIDATION_ERROR', 'assignedMentioned[0].name');
  assert.match(amb.error.message, /TeamMember 107, TeamMember 108/);
  await refused(s, () => s.api(KEYS.admin, 'POST', cp(), { html: '<p>x</p>', assignedMentioned: [{ name: 'Dee Departed' }] }), 400, 'VALIDATION_ERROR', 'assignedMentioned[0].name');
  await refused(s, () => s.api(KEYS.admin, 'POST', cp(), { attachment: { name: 'a', data: '%%%' } }), 400, 'VALIDATION_ERROR', 'attachment.data');
  await refused(s, () => s.api(KEYS.admin, 'POST', cp(), { attachment: 'x' }), 400, 'VALIDATION_ERROR', 'attachment');
  // 400 before 404: the body is checked before the checklist is looked up.
  await refused(s, () => s.api(KEYS.admin, 'POST', taskPath('99999999-0000-4000-8000-000000000000', T.collectDetails, '/comments'), {}), 400, 'VALIDATION_ERROR');
  const c = await s.mcp(KEYS.admin);
  const m = await callTool(c, 'add_task_comment', { checklistKey: key, taskKey: T.collectDetails, html: '<p>x</p>', assignedMentioned: [{ name: 'Alex Kim' }] });
  const rest = await s.api(KEYS.admin, 'POST', cp(), { html: '<p>x</p>', assignedMentioned: [{ name: 'Alex Kim' }] });
  assert.deepEqual(withoutRequestId(m.body), withoutRequestId(rest.body));
});

test('5.8 delete a comment: its author or an Administrator; remove_task_comment; 404 for another task\'s comment', async () => {
  const mine = await s.api(KEYS.member, 'POST', cp(), { text: 'by Mia' });
  const admins = await s.api(KEYS.admin, 'POST', cp(), { text: 'by Ada' });
  const forb = await refused(s, () => s.api(KEYS.member, 'DELETE', cp(`/${admins.body.id}`)), 403, 'FORBIDDEN');
  assert.match(forb.error.message, /author|Administrator/);
  assert.equal((await s.api(KEYS.member, 'DELETE', cp(`/${mine.body.id}`))).status, 204);
  const c = await s.mcp(KEYS.owner);
  const r = await callTool(c, 'remove_task_comment', { checklistKey: key, taskKey: T.collectDetails, commentId: admins.body.id });
  assert.deepEqual(r.body, { result: null });
  await refused(s, () => s.api(KEYS.admin, 'DELETE', cp(`/${mine.body.id}`)), 404, 'COMMENT_NOT_FOUND');
  const other = await s.api(KEYS.admin, 'POST', taskPath(key, T.managerApproval, '/comments'), { text: 'elsewhere' });
  await refused(s, () => s.api(KEYS.admin, 'DELETE', cp(`/${other.body.id}`)), 404, 'COMMENT_NOT_FOUND');
  await refused(s, () => s.api(KEYS.admin, 'DELETE', cp('/abc')), 400, 'VALIDATION_ERROR', 'commentId');
});
