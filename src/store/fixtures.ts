// Loads a fixture (fixtures/<name>/fixture.json, or a path to such a file) into an
// empty database: the same code loads the demo and a user's own fixture.
import { readFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Db } from './open';
import { listAssets, readAsset } from '../assets';
import { sha256 } from '../ids';
import { parseStoredDocument, type TemplateDocument } from '../domain/templates/document';
import { saveNewTemplate, saveVersion } from '../domain/templates/save';
import { validateDocument } from '../domain/templates/validate';
import { startChecklist } from '../domain/checklists/start';
import { applyTags } from '../domain/tags/apply';
import { resolveDocNaming } from '../domain/people/naming';

export type FixtureName = string; // 'demo' | 'none' | a path

const DAY = 86_400_000;

export function fixtureNames(): string[] {
  return [...new Set(listAssets('fixtures').map((p) => p.split('/')[1]))];
}

function reader(name: FixtureName): (rel: string) => string {
  if (existsSync(name) && name.endsWith('.json')) {
    const dir = dirname(name);
    return (rel) => readFileSync(rel === 'fixture.json' ? name : join(dir, rel), 'utf8');
  }
  if (!fixtureNames().includes(name)) throw new Error(`Unknown fixture '${name}'. Known: ${fixtureNames().join(', ')}, none, or a path to a fixture.json.`);
  return (rel) => readAsset(`fixtures/${name}/${rel}`);
}

/* eslint-disable @typescript-eslint/no-explicit-any */
export function loadFixture(db: Db, name: FixtureName, now: number): void {
  const read = reader(name);
  const fx = JSON.parse(read('fixture.json'));
  db.transaction(() => {
    for (const ds of fx.systemDataSets ?? []) insertDataSet(db, null, ds, now);
    for (const ws of fx.workspaces) loadWorkspace(db, ws, read, now);
  })();
}

function loadWorkspace(db: Db, ws: any, read: (rel: string) => string, now: number): void {
  db.prepare('INSERT INTO workspaces (id, key, name, region, is_enterprise, created_at) VALUES (?, ?, ?, ?, ?, ?)').run(ws.id, ws.key, ws.name, ws.region, ws.isEnterprise ? 1 : 0, now);
  const insMember = db.prepare(
    'INSERT INTO members (id, workspace_id, first_name, last_name, email, role, is_active, is_anonymous, time_zone, rights, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const anon = ws.anonymousMember;
  insMember.run(anon.id, ws.id, anon.firstName ?? null, anon.lastName ?? null, null, 'Member', 1, 1, null, '[]', now);
  db.prepare('UPDATE workspaces SET anonymous_member_id = ? WHERE id = ?').run(anon.id, ws.id);
  for (const m of ws.members) {
    insMember.run(m.id, ws.id, m.firstName ?? null, m.lastName ?? null, m.email ?? null, m.role, m.isActive === false ? 0 : 1, 0, m.timeZone ?? null, JSON.stringify(m.rights ?? []), now);
  }
  for (const g of ws.groups) {
    db.prepare('INSERT INTO groups (id, workspace_id, name, created_at) VALUES (?, ?, ?, ?)').run(g.id, ws.id, g.name, now);
    for (const mid of g.members) db.prepare('INSERT INTO group_members (group_id, member_id) VALUES (?, ?)').run(g.id, mid);
  }
  for (const k of ws.keys) {
    db.prepare('INSERT INTO api_keys (workspace_id, name, key_hash, member_id, expires_on, revoked_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)').run(
      ws.id,
      k.name,
      sha256(k.key),
      k.member ?? null,
      k.expiresOn ?? null,
      k.revokedOn ? Date.parse(`${k.revokedOn}T12:00:00Z`) : null,
      now,
    );
  }
  for (const f of ws.folders ?? []) {
    db.prepare('INSERT INTO folders (id, workspace_id, name) VALUES (?, ?, ?)').run(f.id, ws.id, f.name);
    for (const r of f.rules ?? []) db.prepare('INSERT INTO folder_rules (folder_id, assignee_type, assignee_id, permission) VALUES (?, ?, ?, ?)').run(f.id, r.assigneeType, r.assigneeId, r.permission);
  }
  for (const ds of ws.dataSets ?? []) insertDataSet(db, ws.id, ds, now);

  // Templates go through the same validate-and-save path as POST /v3/templates and
  // POST .../versions (the fixture's documents keep their ids: ids 'any').
  const templates = new Map<string, { id: number; docs: TemplateDocument[] }>();
  for (const t of ws.templates ?? []) {
    let id = 0;
    const docs: TemplateDocument[] = [];
    (t.versions as string[]).forEach((file, i) => {
      const { result, doc } = validateDocument(JSON.parse(read(file)), { db, workspaceId: ws.id, ids: 'any' });
      if (!doc) throw new Error(`Fixture template ${file} is not a valid template document: ${JSON.stringify(result.violations.filter((v) => v.severity === 'error'))}`);
      let version: number;
      if (i === 0) ({ templateId: id, version } = saveNewTemplate(db, { workspaceId: ws.id, key: t.key, folderId: t.folder ?? null, doc, createdBy: t.createdBy ?? null, now }));
      else version = saveVersion(db, ws.id, id, doc, t.createdBy ?? null, now);
      const stored = db.prepare<[number, number], { document: string }>('SELECT document FROM template_versions WHERE template_id = ? AND version = ?').get(id, version)!;
      docs.push(parseStoredDocument(stored.document));
    });
    if (t.archived) db.prepare('UPDATE templates SET is_archived = 1 WHERE id = ?').run(id);
    for (const p of t.permissions ?? []) {
      db.prepare('INSERT INTO template_permissions (template_id, assignee_type, assignee_id, permission) VALUES (?, ?, ?, ?)').run(id, p.assigneeType, p.assigneeId ?? 0, p.permission);
    }
    templates.set(t.key, { id, docs });
  }

  for (const c of ws.checklists ?? []) {
    const t = templates.get(c.template)!;
    const startedAt = now - (c.startedDaysAgo ?? 0) * DAY;
    const { id } = startChecklist(db, {
      workspaceId: ws.id,
      templateId: t.id,
      version: c.version,
      doc: t.docs[c.version - 1],
      name: c.name,
      createdBy: c.createdBy ?? null,
      now: startedAt,
      startedAt,
      key: c.key,
      parameters: c.parameters,
    });
    for (const [taskKey, o] of Object.entries<any>(c.tasks ?? {})) {
      const task = db.prepare<[number, string], { id: number }>('SELECT id FROM tasks WHERE checklist_id = ? AND key = ?').get(id, taskKey)!;
      if (o.assignees) {
        db.prepare('DELETE FROM task_assignees WHERE task_id = ?').run(task.id);
        for (const a of resolveDocNaming(db, ws.id, o.assignees)) db.prepare('INSERT INTO task_assignees (task_id, assignee_type, assignee_id) VALUES (?, ?, ?)').run(task.id, a.type, a.id);
      }
      if (o.isAssignedExclusively) db.prepare('UPDATE tasks SET is_assigned_exclusively = 1 WHERE id = ?').run(task.id);
      if (o.tags) applyTags(db, ws.id, 'task', task.id, o.tags, now);
      for (const [fk, v] of Object.entries(o.fields ?? {})) {
        db.prepare('INSERT OR REPLACE INTO field_values (task_id, field_key, value, updated_at, updated_by) VALUES (?, ?, ?, ?, ?)').run(task.id, fk, JSON.stringify(v), startedAt, c.createdBy ?? null);
      }
    }
    if (c.completeAllBy) {
      db.prepare("UPDATE tasks SET status = 'Complete', completed_at = ?, completed_by = ? WHERE checklist_id = ? AND is_heading = 0").run(startedAt + DAY, c.completeAllBy, id);
      db.prepare("UPDATE checklists SET status = 'Complete', completed_at = ? WHERE id = ?").run(startedAt + DAY, id);
    }
    if (c.archived) db.prepare('UPDATE checklists SET is_archived = 1 WHERE id = ?').run(id);
  }

  for (const s of ws.standaloneTasks ?? []) {
    const attached = s.attachedTo ? db.prepare<[string], { id: number }>('SELECT id FROM checklists WHERE key = ?').get(s.attachedTo)!.id : null;
    const taskId = Number(
      db
        .prepare(
          `INSERT INTO tasks (key, workspace_id, checklist_id, attached_checklist_id, position, name, description, status, due_at, raised_by, created_at)
           VALUES (?, ?, NULL, ?, 0, ?, ?, 'Incomplete', ?, ?, ?)`,
        )
        .run(s.key, ws.id, attached, s.name, s.description ?? null, s.dueInDays !== undefined ? now + s.dueInDays * DAY : null, s.raisedBy, now).lastInsertRowid,
    );
    for (const a of resolveDocNaming(db, ws.id, s.assignees ?? [])) db.prepare('INSERT INTO task_assignees (task_id, assignee_type, assignee_id) VALUES (?, ?, ?)').run(taskId, a.type, a.id);
    if (s.tags) applyTags(db, ws.id, 'task', taskId, s.tags, now);
  }
}

function insertDataSet(db: Db, workspaceId: number | null, ds: any, now: number): void {
  const system = workspaceId === null;
  const id = Number(
    db
      .prepare('INSERT INTO data_sets (key, workspace_id, slug, name, description, source, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
      .run(ds.key, workspaceId, ds.slug ?? null, ds.name, ds.description ?? null, system ? 'system' : 'organisation', now, system ? null : now).lastInsertRowid,
  );
  ds.fields.forEach((f: any, i: number) =>
    db.prepare('INSERT INTO data_set_fields (key, data_set_id, name, type, description, position) VALUES (?, ?, ?, ?, ?, ?)').run(f.key, id, f.name, f.type, f.description ?? null, i),
  );
  ds.records.forEach((r: any, i: number) =>
    db.prepare('INSERT INTO data_set_records (key, data_set_id, position, vals, created_at) VALUES (?, ?, ?, ?, ?)').run(r.key, id, i, JSON.stringify(r.values), now),
  );
  for (const v of ds.views ?? []) {
    db.prepare('INSERT INTO data_set_views (key, data_set_id, name, is_default, filters, sorts, hidden_fields) VALUES (?, ?, ?, ?, ?, ?, ?)').run(
      v.key,
      id,
      v.name,
      v.isDefault ? 1 : 0,
      JSON.stringify(v.filters ?? []),
      JSON.stringify(v.sorts ?? []),
      JSON.stringify(v.hiddenFields ?? []),
    );
  }
}
