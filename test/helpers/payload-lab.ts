// A checklist that exercises every control of spec v3 6.2, escaping (non-ASCII,
// & < > " '), halted/hidden flags, assignees, comments, tags and files. Seeded on
// top of the demo fixture with a frozen clock so payloads are byte-stable.
import type { Emulator } from '../../src/emulator';
import { insertTemplate, publishVersion } from '../../src/domain/templates/store';
import { startChecklist } from '../../src/domain/checklists/start';
import { applyTags } from '../../src/domain/tags/apply';
import type { TemplateDocument } from '../../src/rows/template-document';
import { guidFrom } from '../../src/ids';

export const LAB_TIME = Date.parse('2025-03-03T09:15:30.250Z');
export const LAB = {
  template: '20000000-0000-4000-8000-0000000000aa',
  checklist: '30000000-0000-4000-8000-0000000000aa',
  tasks: {
    heading: '21000000-0000-4000-8000-0000000000a1',
    everything: '21000000-0000-4000-8000-0000000000a2',
    gate: '21000000-0000-4000-8000-0000000000a3',
    behindGate: '21000000-0000-4000-8000-0000000000a4',
    hidden: '21000000-0000-4000-8000-0000000000a5',
    skipped: '21000000-0000-4000-8000-0000000000a6',
  },
  fields: { upload: '22000000-0000-4000-8000-0000000000a9' },
};

const f = (n: number) => `22000000-0000-4000-8000-0000000000${String(n).padStart(2, '0')}`;

export const LAB_DOC: TemplateDocument = {
  name: 'Payload Lab: Café & <Co> "Quotes" \'n\' ✓',
  description: 'Every control of 6.2, with characters that must be escaped: & < > " \' é 😀',
  tasks: [
    { id: LAB.tasks.heading, ref: 'heading', name: 'Heading — first', isHeading: true },
    {
      id: LAB.tasks.everything,
      ref: 'everything',
      name: 'Every control <b>&</b>',
      fields: [
        { id: f(1), ref: 'st', type: 'ShortText', label: 'Employee Name' },
        { id: f(2), ref: 'lt', type: 'LongText', label: 'Notes, "quoted"' },
        { id: f(3), ref: 'em', type: 'EmailInput', label: 'Work Email' },
        { id: f(4), ref: 'ws', type: 'Website', label: 'Home Page' },
        { id: f(5), ref: 'd1', type: 'Date', label: 'Start Date', mode: 'date' },
        { id: f(6), ref: 'd2', type: 'Date', label: 'Meeting Time', mode: 'time' },
        { id: f(7), ref: 'd3', type: 'Date', label: 'Kick-off', mode: 'date-and-time' },
        { id: f(8), ref: 'dd', type: 'DropDown', label: 'Size', options: [{ id: f(80), text: 'Small' }, { id: f(81), text: 'Extra Large' }] },
        { id: f(9), ref: 'ddl', type: 'DropDown', label: 'Office', dataSet: { name: 'Offices', view: 'All Records', displayField: 'Name' } },
        { id: f(10), ref: 'mc', type: 'MultiChoice', label: 'Equipment', options: [{ id: f(82), text: 'Laptop' }, { id: f(83), text: 'Big Screen' }, { id: f(84), text: 'Café Card' }] },
        { id: f(11), ref: 'sub', type: 'SubTasks', label: 'Accounts', items: [{ id: f(85), text: 'Email' }, { id: f(86), text: 'VPN Access' }] },
        { id: LAB.fields.upload, ref: 'up', type: 'FileUpload', label: 'Signed Contract' },
        { id: f(12), ref: 'tf', type: 'File', label: 'Handbook', files: [{ name: 'handbook.pdf', contentType: 'application/pdf', url: 'https://files.example.test/handbook.pdf' }] },
        {
          id: f(13),
          ref: 'tb',
          type: 'Table',
          label: 'Access Log',
          columns: [
            { id: f(87), name: 'System', readOnly: true },
            { id: f(88), name: 'Granted by' },
          ],
        },
        { id: f(14), ref: 'mt', type: 'MailTo', label: 'Mail HR' },
        { id: f(15), ref: 'mem', type: 'Members', label: 'Approver' },
        { id: f(16), ref: 'lc', type: 'LinkedChecklist', label: 'Sub process' },
        { id: f(17), ref: 'txt', type: 'Text', content: '<p>Read me</p>' },
        { id: f(18), ref: 'unl', type: 'ShortText' },
        { id: f(19), ref: 'unl2', type: 'MultiChoice', options: [{ id: f(89), text: 'Yes' }] },
      ],
    },
    { id: LAB.tasks.gate, ref: 'gate', name: 'Gate', isStop: true },
    { id: LAB.tasks.behindGate, ref: 'behind', name: 'Behind the gate' },
    { id: LAB.tasks.hidden, ref: 'hidden', name: 'Only for Extra Large', fields: [{ id: f(20), ref: 'x', type: 'ShortText', label: 'Why' }] },
    { id: LAB.tasks.skipped, ref: 'skipped', name: 'Skipped' },
  ],
  conditions: [{ ref: 'c1', action: 'show', targets: ['hidden'], match: 'all', when: [{ field: 'dd', operator: 'is', value: 'Extra Large' }] }],
};

export function seedLab(emu: Emulator): { checklistId: number; taskId: (key: string) => number } {
  const db = emu.db;
  const now = LAB_TIME;
  let checklistId = 0;
  db.transaction(() => {
    const tid = insertTemplate(db, { key: LAB.template, workspaceId: 1, now: now - 86_400_000 });
    publishVersion(db, tid, LAB_DOC, 101, now - 86_400_000);
    checklistId = startChecklist(db, { workspaceId: 1, templateId: tid, version: 1, doc: LAB_DOC, name: 'Lab run: Zoë & <Partners> "2025"', createdBy: 101, now, key: LAB.checklist }).id;
    const task = (key: string) => (db.prepare('SELECT id FROM tasks WHERE checklist_id = ? AND key = ?').get(checklistId, key) as { id: number }).id;
    const ev = task(LAB.tasks.everything);
    const set = db.prepare('INSERT OR REPLACE INTO field_values (task_id, field_key, value, updated_at, updated_by) VALUES (?, ?, ?, ?, 101)');
    const values: [string, unknown][] = [
      [f(1), 'Zoë O\'Brien & <Sons> "Ltd"'],
      [f(2), 'Line one\nLine two\ttabbed \\ backslash 😀'],
      [f(3), 'zoe@example.test'],
      [f(4), 'https://example.test/?a=1&b=2'],
      [f(5), '2025-04-01'],
      [f(6), '14:30'],
      [f(7), '2025-04-01T08:00:00.000Z'],
      [f(8), 'Small'],
      [f(9), { recordKey: '52000000-0000-4000-8000-000000000001', text: 'Berlin' }],
      [f(10), ['Laptop', 'Café Card']],
      [f(11), ['VPN Access']],
      [f(13), [['CRM', 'Ada'], [null, 'Omar'], ['Wiki', null]]],
      [f(15), [103]],
      [f(18), 'no label'],
    ];
    for (const [k, v] of values) set.run(ev, k, JSON.stringify(v), now);
    const file = db.prepare('INSERT INTO files (workspace_id, task_id, field_key, name, content_type, data, token, created_at, created_by) VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?)');
    file.run(ev, LAB.fields.upload, 'contract (signed).pdf', 'application/pdf', Buffer.from('%PDF'), 'tok-contract', now, 103);
    file.run(ev, LAB.fields.upload, 'Überweisung.png', 'image/png', Buffer.from('png'), 'tok-image', now + 1000, 103);
    const assign = db.prepare('INSERT INTO task_assignees (task_id, assignee_type, assignee_id) VALUES (?, ?, ?)');
    assign.run(ev, 'TeamMember', 109); // Smith: no first name, assigneeName null
    assign.run(ev, 'TeamMember', 103);
    assign.run(ev, 'Group', 301);
    assign.run(ev, 'TeamMember', 101);
    const comment = db.prepare('INSERT INTO comments (task_id, author_id, html, text, created_at, file_id) VALUES (?, ?, ?, ?, ?, ?)');
    comment.run(ev, 101, '<p>Welcome, Zoë &amp; team!</p>', 'Welcome, Zoë & team!', now + 2000, null);
    file.run(ev, null, 'photo.jpg', 'image/jpeg', Buffer.from('jpg'), 'tok-photo', now + 3000, 103);
    const photo = (db.prepare("SELECT id FROM files WHERE token = 'tok-photo'").get() as { id: number }).id;
    comment.run(ev, 103, null, '', now + 3000, photo);
    applyTags(db, 1, 'task', ev, ['urgent', 'Ärger & Co'], now);
    db.prepare("UPDATE tasks SET due_at = ? WHERE id = ?").run(now + 2 * 86_400_000, ev);
    // Tag and assignment keys are random GUIDs: pin them so payloads are byte-stable.
    for (const t of db.prepare('SELECT id, name FROM tags').all() as { id: number; name: string }[]) db.prepare('UPDATE tags SET key = ? WHERE id = ?').run(guidFrom(`tag:${t.name}`), t.id);
    for (const a of db.prepare('SELECT id FROM tag_assignments').all() as { id: number }[]) db.prepare('UPDATE tag_assignments SET key = ? WHERE id = ?').run(guidFrom(`assignment:${a.id}`), a.id);
    db.prepare("UPDATE tasks SET status = 'NotApplicable', not_applicable_at = ?, not_applicable_by = 102 WHERE id = ?").run(now + 5000, task(LAB.tasks.skipped));
  })();
  return { checklistId, taskId: (key) => (db.prepare('SELECT id FROM tasks WHERE checklist_id = ? AND key = ?').get(checklistId, key) as { id: number }).id };
}
