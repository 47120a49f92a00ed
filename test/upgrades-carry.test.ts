// The carry table of spec v3 4.4 "Upgrade checklists", row by row, each with a template pair
// built for it (v1 created, exported, changed keeping ids, published as v2 by Omar Owner),
// a checklist started on v1, answered, upgraded by Ada Admin and rebuilt by the worker.
// Answers v2 cannot hold go to the checklist's activity attributed to the publisher (Omar).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, KEYS, DEMO, type TestServer } from './helpers/server';
import { upgradeKit, taskKey, fieldKey, fieldDef, taskDef, clone, UPGRADE_DELAY_MS } from './helpers/upgrades';

let s: TestServer;
let k: ReturnType<typeof upgradeKit>;
before(async () => {
  s = await startTestServer({ upgrades: { delayMs: UPGRADE_DELAY_MS } });
  k = upgradeKit(s);
});
after(() => s.close());

/** v1 from `doc`, v2 = change(export of v1); a checklist on v1 (with `parameters`). */
async function pair(doc: any, change: (d: any) => void, parameters?: Record<string, unknown>) {
  const v1 = await k.createTemplate(doc);
  const d2 = clone(v1.doc);
  change(d2);
  const v2 = await k.publish(v1.key, d2);
  const c = await k.start(v1.key, `${doc.name} checklist`, parameters, 1);
  return { key: v1.key, v1: v1.doc, v2, c };
}

/** Lines the upgrade wrote about answers it could not keep. */
const lostLines = async (c: string) => (await k.activity(c)).filter((e) => e.action === 'checklist.upgrade_answer_lost');

test('4.4 carry: Short Text, Long Text, E-Mail, Website keep their value (also across a text type change); a removed field is recorded, attributed to the publisher', async () => {
  const p = await pair(
    {
      name: 'Carry Text',
      tasks: [
        {
          ref: 't',
          name: 'Texts',
          fields: [
            { ref: 'short', type: 'ShortText', label: 'Short' },
            { ref: 'long', type: 'LongText', label: 'Long' },
            { ref: 'mail', type: 'EmailInput', label: 'Mail' },
            { ref: 'web', type: 'Website', label: 'Web' },
            { ref: 'retyped', type: 'ShortText', label: 'Retyped' },
            { ref: 'gone', type: 'ShortText', label: 'Gone' },
            { type: 'Video', url: 'https://video.example/v1' },
          ],
        },
      ],
    },
    (d) => {
      const fs = d.tasks[0].fields;
      fs.find((f: any) => f.ref === 'short').label = 'Short (renamed)';
      Object.assign(fs.find((f: any) => f.ref === 'retyped'), { type: 'LongText' });
      d.tasks[0].fields = fs.filter((f: any) => f.ref !== 'gone');
    },
  );
  const t = taskKey(p.v1, 't');
  const values: Record<string, string> = { short: 'a short one', long: 'line 1\nline 2', mail: 'x@acme.test', web: 'https://acme.test/x', retyped: 'now long', gone: 'will be lost' };
  for (const [ref, v] of Object.entries(values)) await k.answer(p.c, t, fieldKey(p.v1, ref), v);
  await k.upgradeNow(p.key, p.c);
  for (const ref of ['short', 'long', 'mail', 'web', 'retyped']) assert.equal((await k.field(p.c, t, fieldKey(p.v1, ref))).value, values[ref], ref);
  assert.equal((await k.field(p.c, t, fieldKey(p.v1, 'short'))).name, 'Short (renamed)');
  assert.equal(await k.field(p.c, t, fieldKey(p.v1, 'gone')), undefined);
  const lost = await lostLines(p.c);
  assert.equal(lost.length, 1);
  assert.match(lost[0].text, /"Gone" on task "Texts": the answer "will be lost" was not kept: the field was removed/);
  assert.equal(lost[0].createdBy.name, 'Omar Owner', 'attributed to the publisher of the target version');
  const up = (await k.activity(p.c)).find((e) => e.action === 'checklist.upgraded');
  assert.equal(up.createdBy.name, 'Omar Owner');
  assert.deepEqual(up.details, { fromVersion: 1, toVersion: 2, answersNotKept: 1 });
});

test('4.4 carry: Date & Time keeps the date when given (date into date-and-time too); a date that cannot become a time is recorded', async () => {
  const p = await pair(
    {
      name: 'Carry Dates',
      tasks: [
        {
          ref: 't',
          name: 'Dates',
          fields: [
            { ref: 'd', type: 'Date', label: 'Day' },
            { ref: 'dt', type: 'Date', label: 'Day to instant', mode: 'date' },
            { ref: 'tm', type: 'Date', label: 'Day to time' },
            { ref: 'empty', type: 'Date', label: 'Never given' },
          ],
        },
      ],
    },
    (d) => {
      d.tasks[0].fields[1].mode = 'date-and-time';
      d.tasks[0].fields[2].mode = 'time';
    },
  );
  const t = taskKey(p.v1, 't');
  await k.answer(p.c, t, fieldKey(p.v1, 'd'), '2026-03-02');
  await k.answer(p.c, t, fieldKey(p.v1, 'dt'), '2026-03-03');
  await k.answer(p.c, t, fieldKey(p.v1, 'tm'), '2026-03-04');
  await k.upgradeNow(p.key, p.c);
  assert.equal((await k.field(p.c, t, fieldKey(p.v1, 'd'))).value, '2026-03-02');
  assert.equal((await k.field(p.c, t, fieldKey(p.v1, 'dt'))).value, '2026-03-03T00:00:00.000Z');
  assert.equal((await k.field(p.c, t, fieldKey(p.v1, 'tm'))).value, undefined);
  assert.equal((await k.field(p.c, t, fieldKey(p.v1, 'empty'))).value, undefined);
  const lost = await lostLines(p.c);
  assert.equal(lost.length, 1);
  assert.match(lost[0].text, /"Day to time".*2026-03-04 \(the field now holds a time only\)/);
});

test('4.4 carry: Dropdown and Multi-Choice keep the selection by option key (renamed options follow); removed options are recorded', async () => {
  const p = await pair(
    {
      name: 'Carry Choices',
      tasks: [
        {
          ref: 't',
          name: 'Choose',
          fields: [
            { ref: 'dd', type: 'DropDown', label: 'Size', options: [{ text: 'Small' }, { text: 'Large' }] },
            { ref: 'ddGone', type: 'DropDown', label: 'Colour', options: [{ text: 'Red' }, { text: 'Blue' }] },
            { ref: 'mc', type: 'MultiChoice', label: 'Extras', options: [{ text: 'Bag' }, { text: 'Hat' }, { text: 'Pen' }] },
          ],
        },
      ],
    },
    (d) => {
      const [dd, ddGone, mc] = d.tasks[0].fields;
      dd.options[1].text = 'Big'; // same option id, new words
      ddGone.options = ddGone.options.filter((o: any) => o.text !== 'Blue');
      mc.options = [mc.options[0], { id: mc.options[2].id, text: 'Pencil' }, { text: 'Hat' }]; // Hat removed (the new Hat is another option)
    },
  );
  const t = taskKey(p.v1, 't');
  await k.answer(p.c, t, fieldKey(p.v1, 'dd'), 'Large');
  await k.answer(p.c, t, fieldKey(p.v1, 'ddGone'), 'Blue');
  await k.answer(p.c, t, fieldKey(p.v1, 'mc'), ['Bag', 'Hat', 'Pen']);
  await k.upgradeNow(p.key, p.c);
  assert.equal((await k.field(p.c, t, fieldKey(p.v1, 'dd'))).value, 'Big');
  assert.equal((await k.field(p.c, t, fieldKey(p.v1, 'ddGone'))).value, undefined);
  assert.deepEqual((await k.field(p.c, t, fieldKey(p.v1, 'mc'))).value, ['Bag', 'Pencil']);
  const lost = (await lostLines(p.c)).map((e) => e.text).sort();
  assert.equal(lost.length, 2);
  assert.match(lost[0], /"Colour".*Blue \(no longer offered\)/);
  assert.match(lost[1], /"Extras".*Hat \(no longer offered\)/);
});

test('4.4 carry: Dropdown and Multi-Choice whose Data Set link changed are matched by displayed words; unmatched words are recorded', async () => {
  const p = await pair(
    {
      name: 'Carry Linked Choices',
      tasks: [
        {
          ref: 't',
          name: 'Offices',
          fields: [
            { ref: 'office', type: 'DropDown', label: 'Office', options: [{ text: 'London' }, { text: 'Atlantis' }] },
            { ref: 'offices', type: 'MultiChoice', label: 'Offices', dataSet: { name: 'Offices' } },
            { ref: 'unlinked', type: 'DropDown', label: 'Unlinked', dataSet: { name: 'Offices' } },
          ],
        },
      ],
    },
    (d) => {
      const [office, offices, unlinked] = d.tasks[0].fields;
      delete office.options;
      office.dataSet = { name: 'Offices' }; // options → a Data Set link
      offices.dataSet = { name: 'Offices', displayField: 'Contact' }; // link changed: other words shown
      delete unlinked.dataSet;
      unlinked.options = [{ text: 'Berlin' }, { text: 'Rome' }]; // link → options
    },
  );
  const t = taskKey(p.v1, 't');
  await k.answer(p.c, t, fieldKey(p.v1, 'office'), 'London');
  await k.answer(p.c, t, fieldKey(p.v1, 'offices'), ['Berlin', 'Paris']);
  await k.answer(p.c, t, fieldKey(p.v1, 'unlinked'), 'Berlin');
  await k.upgradeNow(p.key, p.c);
  assert.deepEqual((await k.field(p.c, t, fieldKey(p.v1, 'office'))).value, { recordKey: '52000000-0000-4000-8000-000000000002', text: 'London' });
  assert.equal((await k.field(p.c, t, fieldKey(p.v1, 'unlinked'))).value, 'Berlin');
  assert.deepEqual((await k.field(p.c, t, fieldKey(p.v1, 'offices'))).value, [], 'no Contact reads "Berlin" or "Paris"');
  const lost = (await lostLines(p.c)).map((e) => e.text).join('\n');
  assert.match(lost, /"Offices".*Berlin \(no longer offered\)/);
  assert.match(lost, /"Offices".*Paris \(no longer offered\)/);
  // Same link kept: the record itself is carried.
  const q = await pair({ name: 'Same Link', tasks: [{ ref: 't', name: 'T', fields: [{ ref: 'o', type: 'DropDown', label: 'O', dataSet: { name: 'Offices' } }] }] }, (d) => {
    d.tasks[0].name = 'T2';
  });
  await k.answer(q.c, taskKey(q.v1, 't'), fieldKey(q.v1, 'o'), '52000000-0000-4000-8000-000000000003');
  await k.upgradeNow(q.key, q.c);
  assert.deepEqual((await k.field(q.c, taskKey(q.v1, 't'), fieldKey(q.v1, 'o'))).value, { recordKey: '52000000-0000-4000-8000-000000000003', text: 'New York' });
});

test('4.4 carry: Sub-Tasks keep their ticked items, matched by item key; a removed item is recorded', async () => {
  const p = await pair(
    { name: 'Carry SubTasks', tasks: [{ ref: 't', name: 'Steps', fields: [{ ref: 'st', type: 'SubTasks', label: 'Steps', items: [{ text: 'One' }, { text: 'Two' }, { text: 'Three' }] }] }] },
    (d) => {
      const st = d.tasks[0].fields[0];
      st.items = [{ id: st.items[0].id, text: 'First' }, st.items[1], { text: 'Four' }];
    },
  );
  const t = taskKey(p.v1, 't');
  await k.answer(p.c, t, fieldKey(p.v1, 'st'), ['One', 'Three']);
  await k.upgradeNow(p.key, p.c);
  assert.deepEqual((await k.field(p.c, t, fieldKey(p.v1, 'st'))).value, ['First']);
  const lost = await lostLines(p.c);
  assert.equal(lost.length, 1);
  assert.match(lost[0].text, /"Steps".*Three \(no longer offered\)/);
});

test('4.4 carry: Members keep the selections still offered and not excluded', async () => {
  const p = await pair(
    {
      name: 'Carry Members',
      tasks: [
        {
          ref: 't',
          name: 'People',
          fields: [
            { ref: 'm', type: 'Members', label: 'Helpers', selectionMode: 'multiple' },
            { ref: 'one', type: 'Members', label: 'Owner', selectionMode: 'multiple' },
          ],
        },
      ],
    },
    (d) => {
      d.tasks[0].fields[0].group = 'Operations'; // only Mia and the first Alex Kim are offered now
      d.tasks[0].fields[1].selectionMode = 'single';
    },
  );
  const t = taskKey(p.v1, 't');
  await k.answer(p.c, t, fieldKey(p.v1, 'm'), [DEMO.members.mia, DEMO.members.nora]);
  await k.answer(p.c, t, fieldKey(p.v1, 'one'), [DEMO.members.ada, DEMO.members.omar]);
  await k.upgradeNow(p.key, p.c);
  assert.deepEqual((await k.field(p.c, t, fieldKey(p.v1, 'm'))).value.map((m: any) => m.id), [DEMO.members.mia]);
  assert.deepEqual((await k.field(p.c, t, fieldKey(p.v1, 'one'))).value.map((m: any) => m.id), [DEMO.members.ada]);
  const lost = (await lostLines(p.c)).map((e) => e.text).join('\n');
  assert.match(lost, /"Helpers".*Nora Noperm \(no longer offered\)/);
  assert.match(lost, /"Owner".*Omar Owner \(the field now takes one person\)/);
});

test('4.4 carry: File Upload keeps the uploaded files (also when the field moves to another task); a field no longer File Upload records them', async () => {
  const p = await pair(
    {
      name: 'Carry Files',
      tasks: [
        { ref: 'a', name: 'Upload', fields: [{ ref: 'f', type: 'FileUpload', label: 'Receipt' }, { ref: 'g', type: 'FileUpload', label: 'Scan' }] },
        { ref: 'b', name: 'Other' },
      ],
    },
    (d) => {
      const [f, g] = d.tasks[0].fields;
      d.tasks[0].fields = [];
      d.tasks[1].fields = [f, { ...g, type: 'ShortText' }];
    },
  );
  const a = taskKey(p.v1, 'a');
  const b = taskKey(p.v1, 'b');
  const data = Buffer.from('receipt bytes').toString('base64');
  await k.ok(s.api(KEYS.admin, 'POST', `/v3/checklists/${p.c}/tasks/${a}/fields/${fieldKey(p.v1, 'f')}/files`, { name: 'r.txt', contentType: 'text/plain', data }), 201);
  await k.ok(s.api(KEYS.admin, 'POST', `/v3/checklists/${p.c}/tasks/${a}/fields/${fieldKey(p.v1, 'g')}/files`, { name: 'scan.png', contentType: 'image/png', data }), 201);
  await k.upgradeNow(p.key, p.c);
  const files = (await k.field(p.c, b, fieldKey(p.v1, 'f'))).value;
  assert.deepEqual(files.map((x: any) => x.name), ['r.txt']);
  const download = await fetch(files[0].url);
  assert.equal(await download.text(), 'receipt bytes');
  const lost = await lostLines(p.c);
  assert.equal(lost.length, 1);
  assert.match(lost[0].text, /"Scan".*the uploaded file "scan.png" was not kept: the field is now ShortText/);
});

test('4.4 carry: Table keeps cell values and added rows, adjusted for added and removed columns; removed-column values are not recorded', async () => {
  const p = await pair(
    { name: 'Carry Table', tasks: [{ ref: 't', name: 'Grid', fields: [{ ref: 'tb', type: 'Table', label: 'Items', columns: [{ name: 'A' }, { name: 'B' }, { name: 'C' }] }] }] },
    (d) => {
      const tb = d.tasks[0].fields[0];
      tb.columns = [tb.columns[2], { name: 'D' }, tb.columns[0]]; // B removed, D added, order changed
    },
  );
  const t = taskKey(p.v1, 't');
  await k.answer(p.c, t, fieldKey(p.v1, 'tb'), [
    ['a1', 'b1', 'c1'],
    ['a2', null, 'c2'],
    ['a3', 'b3', null],
  ]);
  await k.upgradeNow(p.key, p.c);
  const f = await k.field(p.c, t, fieldKey(p.v1, 'tb'));
  assert.deepEqual(f.columns.map((c: any) => c.name), ['C', 'D', 'A']);
  assert.deepEqual(f.value, [
    ['c1', null, 'a1'],
    ['c2', null, 'a2'],
    [null, null, 'a3'],
  ]);
  assert.deepEqual(await lostLines(p.c), [], 'values in removed columns are not recorded');
});

test('4.4 carry: Linked Checklist keeps its link while the field links to the same template; otherwise dropped unrecorded, and a removed one too', async () => {
  await k.createTemplate({ name: 'Carry Child A', tasks: [{ name: 'Child task' }] });
  await k.createTemplate({ name: 'Carry Child B', tasks: [{ name: 'Child task' }] });
  const p = await pair(
    {
      name: 'Carry Links',
      tasks: [
        {
          ref: 't',
          name: 'Links',
          fields: [
            { ref: 'same', type: 'LinkedChecklist', label: 'Same', template: 'Carry Child A' },
            { ref: 'other', type: 'LinkedChecklist', label: 'Other', template: 'Carry Child A' },
            { ref: 'removed', type: 'LinkedChecklist', label: 'Removed', template: 'Carry Child A' },
          ],
        },
      ],
    },
    (d) => {
      d.tasks[0].fields[1].template = 'Carry Child B';
      d.tasks[0].fields.splice(2, 1);
    },
  );
  const t = taskKey(p.v1, 't');
  const same = (await k.field(p.c, t, fieldKey(p.v1, 'same'))).value.checklistKey;
  assert.ok((await k.field(p.c, t, fieldKey(p.v1, 'other'))).value.checklistKey);
  await k.upgradeNow(p.key, p.c);
  assert.deepEqual((await k.field(p.c, t, fieldKey(p.v1, 'same'))).value, { checklistKey: same });
  assert.equal((await k.field(p.c, t, fieldKey(p.v1, 'other'))).value, undefined);
  assert.deepEqual(await lostLines(p.c), [], 'Linked Checklist links are not recorded');
  // Both sides still read the surviving link.
  const links = await k.ok(s.api(KEYS.admin, 'GET', `/v3/checklists/${p.c}/links`));
  assert.deepEqual(links.linkedTo.map((l: any) => [l.checklist.key, l.fieldKey]), [[same, fieldKey(p.v1, 'same')]]);
  const back = await k.ok(s.api(KEYS.admin, 'GET', `/v3/checklists/${same}/links`));
  assert.deepEqual(back.linkedFrom.map((l: any) => [l.checklist.key, l.taskKey, l.fieldKey]), [[p.c, t, fieldKey(p.v1, 'same')]]);
});

test('4.4 carry: task status: completed and not applicable keep status, actor and time; a completed task with an unanswered required field in the new version becomes incomplete', async () => {
  const p = await pair(
    {
      name: 'Carry Status',
      tasks: [
        { ref: 'done', name: 'Done', assignees: [{ name: 'Mia Member' }], fields: [{ ref: 'x', type: 'ShortText', label: 'X' }] },
        { ref: 'na', name: 'Not applicable' },
        { ref: 'req', name: 'Now requires', fields: [{ ref: 'y', type: 'ShortText', label: 'Y' }] },
        { ref: 'open', name: 'Open' },
      ],
    },
    (d) => {
      d.tasks[2].fields[0].isRequired = true;
      d.tasks[0].fields[0].isRequired = true; // answered: stays complete
    },
  );
  const [done, na, req] = ['done', 'na', 'req'].map((r) => taskKey(p.v1, r));
  await k.answer(p.c, done, fieldKey(p.v1, 'x'), 'answered');
  await k.ok(s.api(KEYS.member, 'POST', `/v3/checklists/${p.c}/tasks/${done}/complete`));
  await k.ok(s.api(KEYS.admin, 'POST', `/v3/checklists/${p.c}/tasks/${na}/not-applicable`));
  await k.ok(s.api(KEYS.admin, 'POST', `/v3/checklists/${p.c}/tasks/${req}/complete`));
  const before = { done: await k.task(p.c, done), na: await k.task(p.c, na) };
  await k.upgradeNow(p.key, p.c);
  const after = { done: await k.task(p.c, done), na: await k.task(p.c, na), req: await k.task(p.c, req) };
  assert.equal(after.done.status, 'Complete');
  assert.deepEqual([after.done.completedBy, after.done.completedDateTime], [before.done.completedBy, before.done.completedDateTime]);
  assert.equal(after.done.completedBy.name, 'Mia Member');
  assert.equal(after.na.status, 'NotApplicable');
  assert.deepEqual([after.na.notApplicableBy, after.na.notApplicableDateTime], [before.na.notApplicableBy, before.na.notApplicableDateTime]);
  assert.equal(after.req.status, 'Incomplete');
  assert.equal(after.req.completedDateTime, undefined);
  const reopened = (await k.activity(p.c)).find((e) => e.action === 'task.reopened_by_upgrade');
  assert.equal(reopened.taskKey, req);
  assert.match(reopened.text, /version 2 requires "Y"/);
});

test('4.4 carry: comments, all of them, stay with their tasks', async () => {
  const p = await pair({ name: 'Carry Comments', tasks: [{ ref: 't', name: 'Talk' }, { ref: 'u', name: 'More' }] }, (d) => {
    d.tasks.reverse();
    d.tasks[0].name = 'More (first now)';
  });
  const t = taskKey(p.v1, 't');
  const u = taskKey(p.v1, 'u');
  await k.ok(s.api(KEYS.admin, 'POST', `/v3/checklists/${p.c}/tasks/${t}/comments`, { text: 'first' }), 201);
  await k.ok(s.api(KEYS.member, 'POST', `/v3/checklists/${p.c}/tasks/${t}/comments`, { text: 'second' }), 201);
  await k.ok(s.api(KEYS.admin, 'POST', `/v3/checklists/${p.c}/tasks/${u}/comments`, { text: 'third' }), 201);
  const before = (await k.task(p.c, t)).comments;
  await k.upgradeNow(p.key, p.c);
  assert.deepEqual((await k.task(p.c, t)).comments, before);
  assert.deepEqual((await k.task(p.c, u)).comments.map((c: any) => c.text), ['third']);
  assert.deepEqual((await k.tasks(p.c)).map((x: any) => x.key), [u, t], 'order of the new version');
});

test('4.4 carry: assignees: additions and removals made on the checklist relative to the template, over the new defaults', async () => {
  const p = await pair(
    {
      name: 'Carry Assignees',
      tasks: [
        { ref: 't', name: 'Assigned', assignees: [{ name: 'Ada Admin' }, { name: 'Operations' }] },
        { ref: 'u', name: 'Untouched', assignees: [{ name: 'Ada Admin' }] },
      ],
    },
    (d) => {
      d.tasks[0].assignees = [{ name: 'Ada Admin' }, { name: 'Operations' }, { name: 'Omar Owner' }];
      d.tasks[1].assignees = [{ name: 'Sales' }];
    },
  );
  const t = taskKey(p.v1, 't');
  const u = taskKey(p.v1, 'u');
  // On the checklist: Ada removed, Mia added (Operations kept).
  await k.ok(s.api(KEYS.admin, 'PUT', `/v3/checklists/${p.c}/tasks/${t}/assignees`, { assignees: [{ type: 'Group', id: DEMO.groups.operations }, { name: 'Mia Member' }] }));
  await k.upgradeNow(p.key, p.c);
  const ids = (x: any) => x.assignees.map((a: any) => `${a.type}:${a.id}`).sort();
  assert.deepEqual(ids(await k.task(p.c, t)), [`Group:${DEMO.groups.operations}`, `TeamMember:${DEMO.members.mia}`, `TeamMember:${DEMO.members.omar}`].sort());
  assert.deepEqual(ids(await k.task(p.c, u)), [`Group:${DEMO.groups.sales}`], 'no change on the checklist: the new defaults');
});

test('4.4 carry: due dates: a changed due date is kept while the rule is unchanged; a changed rule dates the task anew', async () => {
  const p = await pair(
    {
      name: 'Carry Due',
      tasks: [
        { ref: 'keep', name: 'Keep', dueDate: { relativeTo: 'checklistStart', offsetDays: 2 } },
        { ref: 'redo', name: 'Redo', dueDate: { relativeTo: 'checklistStart', offsetDays: 2 } },
        { ref: 'plain', name: 'Plain', dueDate: { relativeTo: 'checklistStart', offsetDays: 1 } },
      ],
    },
    (d) => {
      d.tasks[1].dueDate = { relativeTo: 'checklistStart', offsetDays: 5 };
      d.tasks[2].name = 'Plain (renamed)';
    },
  );
  const [keep, redo, plain] = ['keep', 'redo', 'plain'].map((r) => taskKey(p.v1, r));
  await k.ok(s.api(KEYS.admin, 'PUT', `/v3/checklists/${p.c}/tasks/${keep}/due-date`, { dueDateTime: '2030-01-01T09:00:00Z' }));
  await k.ok(s.api(KEYS.admin, 'PUT', `/v3/checklists/${p.c}/tasks/${redo}/due-date`, { dueDateTime: '2030-01-01T09:00:00Z' }));
  const start = Date.parse((await k.checklist(p.c)).startDateTime);
  const plainBefore = (await k.task(p.c, plain)).dueDateTime;
  await k.upgradeNow(p.key, p.c);
  assert.equal((await k.task(p.c, keep)).dueDateTime, '2030-01-01T09:00:00.000Z');
  assert.equal((await k.task(p.c, redo)).dueDateTime, new Date(start + 5 * 86_400_000).toISOString());
  assert.equal((await k.task(p.c, plain)).dueDateTime, plainBefore);
});

test('4.4 carry: custom notifications added to the checklist itself are kept; one watching a removed task goes and is recorded', async () => {
  const p = await pair({ name: 'Carry Notifications', tasks: [{ ref: 'a', name: 'A' }, { ref: 'b', name: 'B' }] }, (d) => {
    d.tasks.splice(1, 1);
  });
  // No v3 route adds a notification to one checklist (spec: bodies not shown); written as the app would store it.
  const id = (s.emu.db.prepare('SELECT id FROM checklists WHERE key = ?').get(p.c) as { id: number }).id;
  const add = s.emu.db.prepare("INSERT INTO checklist_notifications (checklist_id, trigger, task_key, recipients, subject, created_by, created_at) VALUES (?, ?, ?, '[]', ?, 101, 0)");
  add.run(id, 'taskCompleted', taskKey(p.v1, 'a'), 'A is done');
  add.run(id, 'checklistCompleted', null, 'All done');
  add.run(id, 'taskCompleted', taskKey(p.v1, 'b'), 'B is done');
  await k.upgradeNow(p.key, p.c);
  const kept = s.emu.db.prepare('SELECT subject FROM checklist_notifications WHERE checklist_id = ? ORDER BY id').all(id) as { subject: string }[];
  assert.deepEqual(kept.map((n) => n.subject), ['A is done', 'All done']);
  const lost = (await lostLines(p.c)).map((e) => e.text);
  assert.deepEqual(lost, ['The custom notification "B is done" was not kept: the task it watched was removed.']);
});

test('4.4 removed task: its answers are recorded (not its Linked Checklist), it leaves the checklist; a new task arrives with its defaults', async () => {
  await k.createTemplate({ name: 'Removed Task Child', tasks: [{ name: 'x' }] });
  const p = await pair(
    {
      name: 'Removed Task',
      tasks: [
        { ref: 'a', name: 'Stays' },
        { ref: 'b', name: 'Goes', fields: [{ ref: 'n', type: 'ShortText', label: 'Note' }, { ref: 'l', type: 'LinkedChecklist', label: 'Link', template: 'Removed Task Child' }] },
      ],
    },
    (d) => {
      d.tasks.splice(1, 1);
      d.tasks.push({ ref: 'c', name: 'New', assignees: [{ name: 'Mia Member' }], dueDate: { relativeTo: 'checklistStart', offsetDays: 3 } });
    },
  );
  await k.answer(p.c, taskKey(p.v1, 'b'), fieldKey(p.v1, 'n'), 'gone with the task');
  await k.upgradeNow(p.key, p.c);
  const tasks = await k.tasks(p.c);
  assert.deepEqual(tasks.map((x: any) => x.name), ['Stays', 'New']);
  const fresh = await k.task(p.c, tasks[1].key);
  assert.deepEqual(fresh.assignees.map((a: any) => a.id), [DEMO.members.mia]);
  assert.ok(fresh.dueDateTime);
  const lost = (await lostLines(p.c)).map((e) => e.text);
  assert.deepEqual(lost, ['"Note" on task "Goes": the answer "gone with the task" was not kept: the task was removed.']);
});

test('4.4 valueFrom: a field given a new or changed binding takes the value of the parameter sent at start; an unchanged binding keeps the answer', async () => {
  const p = await pair(
    {
      name: 'Carry ValueFrom',
      parameters: [{ name: 'employee', field: 'who' }],
      tasks: [
        {
          ref: 't',
          name: 'Bound',
          fields: [
            { ref: 'who', type: 'ShortText', label: 'Who' },
            { ref: 'dept', type: 'ShortText', label: 'Department' },
            { ref: 'late', type: 'ShortText', label: 'Bound later' },
          ],
        },
      ],
    },
    (d) => {
      d.parameters.push({ name: 'department', field: 'dept' });
      d.tasks[0].fields[2].valueFrom = { parameter: 'employee' };
    },
    { employee: 'Jane', department: 'Sales' },
  );
  const t = taskKey(p.v1, 't');
  await k.answer(p.c, t, fieldKey(p.v1, 'who'), 'Jane Doe (edited)');
  await k.answer(p.c, t, fieldKey(p.v1, 'late'), 'typed by hand');
  await k.upgradeNow(p.key, p.c);
  assert.equal((await k.field(p.c, t, fieldKey(p.v1, 'who'))).value, 'Jane Doe (edited)', 'binding unchanged: the answer stays');
  assert.equal((await k.field(p.c, t, fieldKey(p.v1, 'dept'))).value, 'Sales', 'new binding: the parameter value');
  assert.equal((await k.field(p.c, t, fieldKey(p.v1, 'late'))).value, 'Jane', 'new binding takes the binding value');
  void fieldDef;
  void taskDef;
});
