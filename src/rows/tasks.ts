// Task rows as stored (schema.sql `tasks`): checklist tasks and standalone tasks alike, with
// their finders and writers. Keys compare without case (spec v3 2.1: GUIDs).
import type { Db } from '../store/open';
import { declareMemo, memoOn } from '../store/memo';
import { insertOf, type InsertOf, type RowOf } from '../store/columns';
import { TASK_ROW_COLUMNS, tasksTable } from '../store/tables/tasks';
import type { DocTask } from './template-document';

/** A task row as rows here read it: the declared columns but the grid's own (store/tables/tasks.ts). */
export type TaskRow = Omit<RowOf<typeof tasksTable.columns>, 'grid_halted' | 'stop_hidden'>;

// Remembered per task until its row is written (a memo per task, store/memo.ts; shared: callers
// only read them); a status write below hands over the row it leaves, so the answer after it, and the next
// request naming the task, read nothing again (two statements of every status write before).
const TASK_ROW = declareMemo({ name: 'task row', reads: [{ table: 'tasks', columns: TASK_ROW_COLUMNS }], per: 'task' });
const rowsOn = (db: Db) => memoOn<number, TaskRow | null>(db, TASK_ROW);

/** A task row's columns (not the grid's own flags: store/tables/tasks.ts). */
const ROW = TASK_ROW_COLUMNS.join(', ');

export function taskById(db: Db, id: number): TaskRow | undefined {
  return rowsOn(db).get(id, () => db.prepare<[number], TaskRow>(`SELECT ${ROW} FROM tasks WHERE id = ?`).get(id) ?? null) ?? undefined;
}

/**
 * A checklist's task by its key, in any letter case. The key as stored is found in the
 * checklist's remembered task states, or through the unique index; only another case compares
 * every task key of the checklist without case.
 */
export function checklistTaskByKey(db: Db, checklistId: number, key: string): TaskRow | undefined {
  const known = statesOn(db).current(checklistId)?.value.find((t) => t.key === key);
  if (known) return taskById(db, known.id);
  const row =
    db.prepare<[number, string], TaskRow>(`SELECT ${ROW} FROM tasks WHERE checklist_id = ? AND key = ?`).get(checklistId, key) ??
    db.prepare<[number, string], TaskRow>(`SELECT ${ROW} FROM tasks WHERE checklist_id = ? AND key = ? COLLATE NOCASE`).get(checklistId, key);
  if (row) rowsOn(db).remember(row.id, row);
  return row;
}

/** A standalone task of the workspace by its key (attached or not). */
export function standaloneTaskByKey(db: Db, workspaceId: number, key: string): TaskRow | undefined {
  return db.prepare<[string, number], TaskRow>(`SELECT ${ROW} FROM tasks WHERE checklist_id IS NULL AND key = ? COLLATE NOCASE AND workspace_id = ?`).get(key, workspaceId);
}

/** A checklist's own tasks in checklist order. */
export function tasksOfChecklist(db: Db, checklistId: number): TaskRow[] {
  return db.prepare<[number], TaskRow>(`SELECT ${ROW} FROM tasks WHERE checklist_id = ? ORDER BY position, id`).all(checklistId);
}

/** What a checklist's status and halts are judged on (tasks/evaluate.ts): a task's key, kind and status; and its row's id. */
export type TaskState = Pick<TaskRow, 'id' | 'key' | 'is_heading' | 'is_stop' | 'status'>;

// Remembered per checklist until one of its tasks' states is written (a memo per checklist, store/memo.ts);
// a status write below hands over the list it leaves, so the status refresh and the answer after
// it read nothing again (measured: 1.5 reads of ~14 us per status write before).
const TASK_STATES = declareMemo({ name: 'checklist task states', reads: [{ table: 'tasks', columns: ['id', 'key', 'is_heading', 'is_stop', 'status', 'position', 'checklist_id'] }], per: 'checklist' });
const statesOn = (db: Db) => memoOn<number, readonly TaskState[]>(db, TASK_STATES);

/**
 * A checklist's own tasks in checklist order, only what TaskState holds (measured: the whole
 * 22-column rows cost ~3x as much to read, on every status write). Shared: callers only read it.
 */
export function taskStatesOfChecklist(db: Db, checklistId: number): readonly TaskState[] {
  return statesOn(db).get(checklistId, () =>
    db.prepare<[number], TaskState>('SELECT id, key, is_heading, is_stop, status FROM tasks WHERE checklist_id = ? ORDER BY position, id').all(checklistId),
  );
}

/** Standalone tasks attached to a checklist, oldest first. */
export function tasksAttachedTo(db: Db, checklistId: number): TaskRow[] {
  return db.prepare<[number], TaskRow>(`SELECT ${ROW} FROM tasks WHERE attached_checklist_id = ? AND checklist_id IS NULL ORDER BY created_at, id`).all(checklistId);
}

export function countTasksAttachedTo(db: Db, checklistId: number): number {
  return db.prepare<[number], { n: number }>('SELECT COUNT(*) AS n FROM tasks WHERE attached_checklist_id = ? AND checklist_id IS NULL').get(checklistId)!.n;
}

// ── status (spec v3 3) ─────────────────────────────────────────────────────────

/**
 * A status write of one task: the UPDATE, then the hand-over of what it left (the task's row,
 * patched with the same columns and values the UPDATE set, and its checklist's task states).
 * `set` is the one column-to-value object both are made from, so they cannot say different things.
 */
type StatusSet = Partial<TaskRow> & { status: NonNullable<TaskRow['status']> };

function writeStatus(db: Db, task: TaskRow, set: StatusSet): void {
  const columns = Object.keys(set);
  const c = task.checklist_id;
  const states = c === null ? undefined : statesOn(db).current(c);
  const row = rowsOn(db).current(task.id);
  const update = db.prepare(`UPDATE tasks SET ${columns.map((k) => `${k} = @${k}`).join(', ')} WHERE id = @id`);
  if (update.run({ ...set, id: task.id }).changes !== 1) return;
  if (c !== null) statesOn(db).afterOwnWrite(c, states, 1, (list) => list.map((t) => (t.id === task.id ? { ...t, status: set.status } : t)));
  rowsOn(db).afterOwnWrite(task.id, row, 1, (r) => (r === null ? null : { ...r, ...set }));
}

export function setTaskComplete(db: Db, task: TaskRow, at: number, by: number): void {
  writeStatus(db, task, { status: 'Complete', completed_at: at, completed_by: by, not_applicable_at: null, not_applicable_by: null });
}

/** Complete → Incomplete. */
export function setTaskUncompleted(db: Db, task: TaskRow): void {
  writeStatus(db, task, { status: 'Incomplete', completed_at: null, completed_by: null });
}

/** Not applicable stamps a completion time too, and names nobody as completer (spec v3 3). */
export function setTaskNotApplicable(db: Db, task: TaskRow, at: number, by: number): void {
  writeStatus(db, task, { status: 'NotApplicable', not_applicable_at: at, not_applicable_by: by, completed_at: at, completed_by: null });
}

/** NotApplicable → Incomplete. */
export function clearTaskNotApplicable(db: Db, task: TaskRow): void {
  writeStatus(db, task, { status: 'Incomplete', not_applicable_at: null, not_applicable_by: null, completed_at: null });
}

// ── due dates ──────────────────────────────────────────────────────────────────

/** A due date set or cleared by hand: rules no longer move it. */
export function setManualDue(db: Db, id: number, dueAt: number | null): void {
  db.prepare('UPDATE tasks SET due_at = ?, due_is_manual = 1 WHERE id = ?').run(dueAt, id);
}

/** A rule's due date for a task of the checklist, unless set by hand (headings have none). */
export function setRuleDueOfTask(db: Db, checklistId: number, key: string, dueAt: number | null): void {
  db.prepare('UPDATE tasks SET due_at = ? WHERE checklist_id = ? AND key = ? COLLATE NOCASE AND due_is_manual = 0 AND is_heading = 0').run(dueAt, checklistId, key);
}

// ── stop visibility (schema.sql version 7) ────────────────────────────────────

export function stopTasksOf(db: Db, checklistId: number): { id: number; key: string; stop_hidden: number }[] {
  return db
    .prepare<[number], { id: number; key: string; stop_hidden: number }>('SELECT id, key, stop_hidden FROM tasks WHERE checklist_id = ? AND is_stop = 1 AND is_heading = 0')
    .all(checklistId);
}

export function setStopHidden(db: Db, id: number, hidden: 0 | 1): void {
  db.prepare('UPDATE tasks SET stop_hidden = ? WHERE id = ?').run(hidden, id);
}

/** Clears what an earlier version's conditions hid. */
export function clearStopHidden(db: Db, checklistId: number): void {
  db.prepare('UPDATE tasks SET stop_hidden = 0 WHERE checklist_id = ? AND stop_hidden = 1').run(checklistId);
}

// ── other single-column writes ─────────────────────────────────────────────────

export function setTaskExclusive(db: Db, id: number, exclusive: boolean): void {
  db.prepare('UPDATE tasks SET is_assigned_exclusively = ? WHERE id = ?').run(exclusive ? 1 : 0, id);
}


// ── standalone tasks (docs/tasks.md) ───────────────────────────────────────────

/** What a standalone task is written with: a member always raised it. */
export type StandaloneInsert = Pick<TaskRow, 'key' | 'workspace_id' | 'attached_checklist_id' | 'name' | 'description' | 'due_at' | 'due_is_manual' | 'is_assigned_exclusively' | 'created_at'> & { raised_by: number };

/** A new standalone task, Incomplete; answers its row id. */
export function insertStandaloneTask(db: Db, t: StandaloneInsert): number {
  return insertTask(db, { ...t, checklist_id: null, position: 0, status: 'Incomplete' });
}

/** What the one INSERT of a task takes (store/columns.ts insertOf: defaults and NULLs may be left out). */
export type TaskInsert = Omit<InsertOf<typeof tasksTable.columns>, 'grid_halted' | 'stop_hidden'>;

// A task row's columns only: the grid's own are the schema triggers' to set (and a database
// still being migrated may not have them yet).
const TASK_INSERT = insertOf<typeof tasksTable.columns, TaskInsert>(tasksTable, TASK_ROW_COLUMNS);

/** The one INSERT of a task (checklist, standalone, fixture); answers its row id. */
export function insertTask(db: Db, t: TaskInsert): number {
  return Number(db.prepare(TASK_INSERT.sql).run(TASK_INSERT.values(t)).lastInsertRowid);
}

export function setTaskName(db: Db, id: number, name: string): void {
  db.prepare('UPDATE tasks SET name = ? WHERE id = ?').run(name, id);
}

export function setTaskDescription(db: Db, id: number, description: string | null): void {
  db.prepare('UPDATE tasks SET description = ? WHERE id = ?').run(description, id);
}

/** A standalone task's due date: by hand when set, rule-free when cleared. */
export function setStandaloneDue(db: Db, id: number, dueAt: number | null): void {
  db.prepare('UPDATE tasks SET due_at = ?, due_is_manual = ? WHERE id = ?').run(dueAt, dueAt === null ? 0 : 1, id);
}

export function setTaskAttachedTo(db: Db, id: number, checklistId: number | null): void {
  db.prepare('UPDATE tasks SET attached_checklist_id = ? WHERE id = ?').run(checklistId, id);
}

export function deleteTask(db: Db, id: number): void {
  db.prepare('DELETE FROM tasks WHERE id = ?').run(id);
}

/** Moves the due dates of a checklist's tasks by `shift` ms (undated tasks stay undated). */
export function shiftTaskDues(db: Db, checklistId: number, shift: number): void {
  db.prepare('UPDATE tasks SET due_at = due_at + ? WHERE checklist_id = ? AND due_at IS NOT NULL').run(shift, checklistId);
}

// ── upgrades (spec v3 3 "Checklist upgrade") ───────────────────────────────────

/** A kept task takes its place and wording from the new version. */
export function setTaskFromVersion(db: Db, id: number, t: Pick<TaskRow, 'position' | 'name' | 'description' | 'is_heading' | 'is_stop' | 'is_assigned_exclusively'>): void {
  db.prepare('UPDATE tasks SET position = ?, name = ?, description = ?, is_heading = ?, is_stop = ?, is_assigned_exclusively = ? WHERE id = ?').run(
    t.position, t.name, t.description, t.is_heading, t.is_stop, t.is_assigned_exclusively, id,
  );
}

/** A task that became a heading keeps no status, completion or due date. */
export function clearTaskStateForHeading(db: Db, id: number): void {
  db.prepare('UPDATE tasks SET status = NULL, completed_at = NULL, completed_by = NULL, not_applicable_at = NULL, not_applicable_by = NULL, due_at = NULL, due_is_manual = 0 WHERE id = ?').run(id);
}

/** A heading that became a task starts incomplete. */
export function setTaskIncompleteStatus(db: Db, id: number): void {
  db.prepare("UPDATE tasks SET status = 'Incomplete' WHERE id = ?").run(id);
}

/** The completion of a checklist task by key (compared without case). */
export function completionOfTaskKey(db: Db, checklistId: number, key: string): { completed_at: number | null; status: string | null } | undefined {
  return db.prepare<[number, string], { completed_at: number | null; status: string | null }>('SELECT completed_at, status FROM tasks WHERE checklist_id = ? AND key = ? COLLATE NOCASE').get(checklistId, key);
}

/** A due date from a rule: rules move it again. */
export function setRuleDue(db: Db, id: number, dueAt: number | null): void {
  db.prepare('UPDATE tasks SET due_at = ?, due_is_manual = 0 WHERE id = ?').run(dueAt, id);
}

/** A checklist's own tasks, in no particular order. */
export function tasksOfChecklistUnordered(db: Db, checklistId: number): TaskRow[] {
  return db.prepare<[number], TaskRow>(`SELECT ${ROW} FROM tasks WHERE checklist_id = ?`).all(checklistId);
}

/** A task of the workspace by its integer id (legacy spec 2); another workspace's is undefined. */
export function taskOfWorkspace(db: Db, workspaceId: number, id: number): TaskRow | undefined {
  return db.prepare<[number, number], TaskRow>(`SELECT ${ROW} FROM tasks WHERE id = ? AND workspace_id = ?`).get(id, workspaceId);
}

/** A standalone task attached to the checklist, by its key. */
export function attachedTaskByKey(db: Db, checklistId: number, key: string): TaskRow | undefined {
  return db.prepare<[number, string], TaskRow>(`SELECT ${ROW} FROM tasks WHERE checklist_id IS NULL AND attached_checklist_id = ? AND key = ? COLLATE NOCASE`).get(checklistId, key);
}

export interface ChecklistTaskInsert {
  key: string;
  workspaceId: number;
  checklistId: number;
  position: number;
  name: string;
  description: string | null;
  isHeading: 0 | 1;
  isStop: 0 | 1;
  status: TaskRow['status'];
  dueAt: number | null;
  exclusive: 0 | 1;
  now: number;
}

/** Adds a template version's task to a checklist as the version lays it out (a heading has no
 * status); returns its row id. */
export function insertTaskOfVersion(db: Db, t: DocTask, at: { workspaceId: number; checklistId: number; position: number; dueAt: number | null; now: number }): number {
  const heading = t.isHeading === true;
  return insertChecklistTask(db, {
    key: t.id!,
    workspaceId: at.workspaceId,
    checklistId: at.checklistId,
    position: at.position,
    name: t.name,
    description: t.description ?? null,
    isHeading: heading ? 1 : 0,
    isStop: t.isStop ? 1 : 0,
    status: heading ? null : 'Incomplete',
    dueAt: at.dueAt,
    exclusive: t.isAssignedExclusively ? 1 : 0,
    now: at.now,
  });
}

/** A checklist's task as a template version lays it out; returns its row id. */
export function insertChecklistTask(db: Db, t: ChecklistTaskInsert): number {
  return insertTask(db, {
    key: t.key,
    workspace_id: t.workspaceId,
    checklist_id: t.checklistId,
    position: t.position,
    name: t.name,
    description: t.description,
    is_heading: t.isHeading,
    is_stop: t.isStop,
    status: t.status,
    due_at: t.dueAt,
    is_assigned_exclusively: t.exclusive,
    created_at: t.now,
  });
}
