// A large, realistic workspace on top of the demo fixture's Acme Corp (docs/tasks-grid.md
// "Generated workspaces"): `wfe seed --generate checklists=100000,tasks=20`. The fixture's
// keys keep working (Mia Member and Ada Admin get their share of the work). Deterministic:
// the same spec gives the same rows (dates relative to `now`).
import type { Db } from './open';
import { saveNewTemplate } from '../domain/templates/save';
import type { TemplateDocument } from '../domain/templates/document';

const DAY = 86_400_000;

export interface GenerateSpec {
  checklists: number;
  tasks: number;
  members: number;
  groups: number;
  templates: number;
  standalone: number;
}

export const DEFAULT_GENERATE: GenerateSpec = { checklists: 100_000, tasks: 20, members: 200, groups: 20, templates: 25, standalone: 2_000 };

/** `checklists=100000,tasks=20` (any of checklists, tasks, members, groups, templates, standalone). */
export function parseGenerateSpec(text: string): GenerateSpec {
  const out = { ...DEFAULT_GENERATE };
  for (const part of text.split(',').map((p) => p.trim()).filter(Boolean)) {
    const m = /^(checklists|tasks|members|groups|templates|standalone)=(\d+)$/.exec(part);
    if (!m) throw new Error(`--generate takes name=number pairs (checklists, tasks, members, groups, templates, standalone), e.g. checklists=100000,tasks=20; got '${part}'.`);
    out[m[1] as keyof GenerateSpec] = Number(m[2]);
  }
  if (out.tasks < 2 || out.tasks > 200) throw new Error('--generate tasks must be from 2 to 200.');
  if (out.templates < 1 || out.members < 1 || out.groups < 1) throw new Error('--generate needs at least one template, member and group.');
  if (out.checklists > 10_000_000) throw new Error('--generate checklists must be at most 10,000,000.');
  return out;
}

/** A small deterministic generator (mulberry32): the same spec gives the same workspace. */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const guidOf = (prefix: string, n: number) => `${prefix}-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

export type Progress = (done: number, total: number) => void;

/**
 * Adds the generated rows to the demo fixture's Acme Corp in `db` (already seeded). One
 * transaction; durability is off while it runs (a half-built file is thrown away anyway).
 */
export function generateWorkspace(db: Db, spec: GenerateSpec, now: number, progress: Progress = () => {}): void {
  const ws = db.prepare<[], { id: number }>("SELECT id FROM workspaces WHERE key = '10000000-0000-4000-8000-000000000001'").get();
  if (!ws) throw new Error('--generate builds on the demo fixture: seed with --fixture demo.');
  const random = rng(20261123);
  const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)];
  db.pragma('synchronous = OFF');
  try {
    db.transaction(() => {
      // The grid's triggers (schema.sql version 6) would run once per row; they are set aside
      // and their tables filled set-wise at the end, with the statements of the migration.
      const triggers = db
        .prepare<[], { name: string; sql: string }>("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name IN ('tasks', 'task_assignees') AND name LIKE '%grid%'")
        .all();
      for (const t of triggers) db.exec(`DROP TRIGGER ${t.name}`);
      const insMember = db.prepare(
        "INSERT INTO members (workspace_id, first_name, last_name, email, role, is_active, rights, created_at) VALUES (?, ?, ?, ?, 'Member', 1, '[]', ?)",
      );
      const memberIds: number[] = [];
      for (let i = 1; i <= spec.members; i++) memberIds.push(Number(insMember.run(ws.id, 'Person', `${i}`, `person${i}@acme.test`, now).lastInsertRowid));
      const mia = 103;
      const ada = 101;
      // Mia and Ada take the share of work one generated member would.
      const workers = [...memberIds, mia, ada];
      const groupIds: number[] = [];
      for (let g = 1; g <= spec.groups; g++) {
        const id = Number(db.prepare('INSERT INTO groups (workspace_id, name, created_at) VALUES (?, ?, ?)').run(ws.id, `Team ${g}`, now).lastInsertRowid);
        groupIds.push(id);
        const size = Math.min(10, workers.length);
        const inGroup = new Set<number>();
        while (inGroup.size < size) inGroup.add(pick(memberIds));
        if (g <= 2) inGroup.add(mia);
        for (const m of inGroup) db.prepare('INSERT OR IGNORE INTO group_members (group_id, member_id) VALUES (?, ?)').run(id, m);
      }

      const stopAt = Math.max(2, Math.floor(spec.tasks / 2));
      const templates: { id: number; version: number; keys: string[]; heading: boolean[]; stop: boolean[]; names: string[] }[] = [];
      for (let t = 1; t <= spec.templates; t++) {
        const doc: TemplateDocument = {
          name: `Process ${t}`,
          description: `Generated process ${t}.`,
          tasks: Array.from({ length: spec.tasks }, (_, i) => ({
            id: guidOf(`6${t.toString(16).padStart(7, '0')}`, i + 1),
            name: i === 0 ? `Process ${t}: preparation` : `Step ${i} of process ${t}`,
            ...(i === 0 ? { isHeading: true } : {}),
            ...(i === stopAt ? { isStop: true } : {}),
          })),
        };
        const saved = saveNewTemplate(db, { workspaceId: ws.id, key: guidOf('5f000000', t), folderId: null, doc, createdBy: ada, now: now - 800 * DAY });
        // Most processes are open to everyone; some only to what is assigned.
        db.prepare("INSERT INTO template_permissions (template_id, assignee_type, assignee_id, permission) VALUES (?, 'AllUsers', 0, ?)").run(
          saved.templateId,
          t % 5 === 0 ? 'ViewAssignedOnly' : 'RunAndView',
        );
        templates.push({
          id: saved.templateId,
          version: saved.version,
          keys: doc.tasks.map((x) => x.id!),
          heading: doc.tasks.map((x) => x.isHeading === true),
          stop: doc.tasks.map((x) => x.isStop === true),
          names: doc.tasks.map((x) => x.name),
        });
      }

      const insChecklist = db.prepare(
        `INSERT INTO checklists (key, workspace_id, template_id, template_version, name, status, created_by, created_at, started_at, completed_at, is_archived)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0)`,
      );
      const insTask = db.prepare(
        `INSERT INTO tasks (key, workspace_id, checklist_id, attached_checklist_id, position, name, is_heading, is_stop, status, completed_at, completed_by, due_at, raised_by, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      );
      const insAssignee = db.prepare('INSERT INTO task_assignees (task_id, assignee_type, assignee_id) VALUES (?, ?, ?)');
      const insComment = db.prepare("INSERT INTO comments (task_id, author_id, html, text, mentions, created_at) VALUES (?, ?, ?, ?, '[]', ?)");
      const assign = (taskId: number) => {
        const r = random();
        if (r < 0.7) insAssignee.run(taskId, 'TeamMember', pick(workers));
        else if (r < 0.8) insAssignee.run(taskId, 'Group', pick(groupIds));
      };

      const step = Math.max(1, Math.floor(spec.checklists / 200));
      for (let c = 0; c < spec.checklists; c++) {
        const t = templates[c % templates.length];
        // Started over the last two years, newest last; the recent 15% still in progress.
        const startedAt = now - Math.floor((1 - c / spec.checklists) * 730 * DAY) - DAY;
        const inProgress = c >= spec.checklists * 0.85;
        const done = inProgress ? Math.floor(random() * spec.tasks) : spec.tasks;
        const checklistId = Number(
          insChecklist.run(guidOf('5e000000', c + 1), ws.id, t.id, t.version, `Process ${(c % templates.length) + 1}: run ${c + 1}`, inProgress ? 'InProgress' : 'Complete', pick(workers), startedAt, startedAt, inProgress ? null : startedAt + 20 * DAY).lastInsertRowid,
        );
        for (let i = 0; i < spec.tasks; i++) {
          const heading = t.heading[i];
          const complete = !heading && i < done;
          const hasDue = !heading && random() < 0.6;
          // Open tasks fall due from ten days ago to a month ahead; finished ones during their run.
          const due = hasDue ? (inProgress && !complete ? now + Math.floor((random() * 40 - 10) * DAY) : startedAt + Math.floor(random() * 20 * DAY)) : null;
          const taskId = Number(
            insTask.run(
              t.keys[i], ws.id, checklistId, null, i + 1, t.names[i], heading ? 1 : 0, t.stop[i] ? 1 : 0,
              heading ? null : complete ? 'Complete' : 'Incomplete', complete ? startedAt + DAY : null, complete ? pick(workers) : null, due, null, startedAt,
            ).lastInsertRowid,
          );
          if (!heading) {
            assign(taskId);
            if (random() < 0.03) insComment.run(taskId, pick(workers), '<p>Looks good.</p>', 'Looks good.', startedAt + DAY);
          }
        }
        if (c % step === 0) progress(c, spec.checklists);
      }
      for (let s = 1; s <= spec.standalone; s++) {
        const open = random() < 0.5;
        const due = random() < 0.7 ? now + Math.floor((random() * 40 - 10) * DAY) : null;
        const taskId = Number(
          insTask.run(guidOf('5d000000', s), ws.id, null, null, 0, `Follow-up ${s}`, 0, 0, open ? 'Incomplete' : 'Complete', open ? null : now - DAY, open ? null : ada, due, pick(workers), now - 30 * DAY).lastInsertRowid,
        );
        assign(taskId);
      }
      db.exec(`
        UPDATE tasks SET grid_halted = (is_heading = 0 AND position > coalesce((SELECT min(s.position) FROM tasks s
                 WHERE s.checklist_id = tasks.checklist_id AND s.is_stop = 1 AND s.is_heading = 0 AND coalesce(s.status, 'Incomplete') = 'Incomplete'), 9000000000000000))
         WHERE checklist_id IN (SELECT checklist_id FROM tasks WHERE is_stop = 1 AND is_heading = 0 AND coalesce(status, 'Incomplete') = 'Incomplete');
        INSERT OR IGNORE INTO grid_open_assignments (assignee_type, assignee_id, task_id)
          SELECT a.assignee_type, a.assignee_id, a.task_id FROM task_assignees a JOIN tasks t ON t.id = a.task_id
           WHERE t.is_heading = 0 AND coalesce(t.status, 'Incomplete') = 'Incomplete';`);
      for (const t of triggers) db.exec(t.sql);
      progress(spec.checklists, spec.checklists);
    })();
  } finally {
    db.pragma('synchronous = FULL');
  }
  db.pragma('optimize');
  db.exec('ANALYZE');
}
