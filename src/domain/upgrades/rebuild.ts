// Rebuilding one checklist on another version of its template (spec v3 3 "Checklist upgrade",
// 4.4 carry table). The checklist row stays (key, name, start date, creator, tags, share);
// tasks are matched by task key and kept in place (so comments, files, tags and activity stay
// with them), fields by field key. Runs inside one transaction: a throw leaves nothing changed.
// Fires no event: an upgrade is neither a new checklist nor a completion (6.3).
import type { Ctx } from '../../context';
import { recordActivity } from '../activity';
import type { ChecklistRow } from '../checklist-lookup';
import { resolveDocNaming } from '../people/naming';
import type { AssigneeRef } from '../../rows/people';
import { applyTags } from '../tags/apply';
import { versionDocument, type DocField, type DocTask, type TemplateDocument } from '../../rows/template-document';
import { isAnswered, validateAnswer } from '../tasks/field-values';
import { evaluateChecklist } from '../tasks/evaluate';
import { syncStopVisibility } from '../tasks/stop-visibility';
import { fieldName } from '../tasks/target';
import { carryValue, describeValue } from './carry-values';
import {
  clearTaskStateForHeading, completionOfTaskKey, deleteTask, insertTaskOfVersion, setRuleDue, setTaskFromVersion, setTaskIncompleteStatus, setTaskUncompleted, tasksOfChecklist, tasksOfChecklistUnordered,
} from '../../rows/tasks';
import { deleteFieldValuesOfChecklist, fieldValuesOfTask, putFieldValue, storedValuesOfChecklist } from '../../rows/field-values';
import { countFieldFiles, deleteFile, fieldFilesOfChecklist, moveFileToTask } from '../../rows/files';
import { detachFileFromComments } from '../../rows/comments';
import { addTaskAssignee, assigneesOfTask, clearTaskAssignees } from '../../rows/task-assignees';
import { untagTask } from '../../rows/tags';
import { clearRebuilding, reopenChecklist, setChecklistComplete, setChecklistVersion } from '../../rows/checklists';
import { deleteChecklistNotification, notificationsOfChecklist } from '../../rows/checklist-notifications';
import { DAY_MS, HOUR_MS } from '../../clock';


export interface RebuildOutcome {
  from: number;
  to: number;
  /** Activity lines written for answers the target could not hold. */
  lost: string[];
}

const lc = (s: string) => s.toLowerCase();

function versionDoc(ctx: Ctx, templateId: number, version: number): TemplateDocument {
  const doc = versionDocument(ctx.db, templateId, version);
  if (!doc) throw new Error(`version ${version} of the template no longer exists`);
  return doc;
}

interface FieldAt {
  f: DocField;
  task: DocTask;
  position: number;
}

function fieldIndex(doc: TemplateDocument): Map<string, FieldAt> {
  const out = new Map<string, FieldAt>();
  for (const t of doc.tasks) (t.fields ?? []).forEach((f, i) => f.id && out.set(lc(f.id), { f, task: t, position: i + 1 }));
  return out;
}

/** The parameter a field is bound to (valueFrom, or a document parameter naming its ref). */
function bindingOf(doc: TemplateDocument, f: DocField): string | undefined {
  const vf = f.valueFrom as { parameter?: string } | undefined;
  if (vf?.parameter) return vf.parameter;
  return f.ref ? doc.parameters?.find((p) => p.field === f.ref)?.name : undefined;
}

/** A due-date rule with its refs turned into keys, so two versions compare by meaning. */
function ruleOf(doc: TemplateDocument, t: DocTask): string | undefined {
  const r = t.dueDate;
  if (!r) return undefined;
  const taskKey = r.task ? (doc.tasks.find((x) => x.ref === r.task || lc(x.id ?? '') === lc(r.task!))?.id ?? r.task) : undefined;
  const fieldKey = r.field ? (doc.tasks.flatMap((x) => x.fields ?? []).find((f) => f.ref === r.field || lc(f.id ?? '') === lc(r.field!))?.id ?? r.field) : undefined;
  return JSON.stringify([r.relativeTo, taskKey && lc(taskKey), fieldKey && lc(fieldKey), r.offsetDays ?? 0, r.offsetHours ?? 0]);
}

const refKey = (a: AssigneeRef) => `${a.type}:${a.id}`;

export interface RebuildOptions {
  /** Throw after the rebuild has been written (tests: the injected failure rolls it all back). */
  failWith?: string;
}

/** Rebuilds `c` on `target`. Call inside a transaction; throws on failure. */
export function rebuildChecklist(ctx: Ctx, c: ChecklistRow, target: number, opts: RebuildOptions = {}): RebuildOutcome {
  const db = ctx.db;
  const now = ctx.now();
  const oldDoc = versionDoc(ctx, c.template_id, c.template_version);
  const newDoc = versionDoc(ctx, c.template_id, target);
  const oldFields = fieldIndex(oldDoc);
  const newFields = fieldIndex(newDoc);
  const oldTaskDoc = new Map(oldDoc.tasks.filter((t) => t.id).map((t) => [lc(t.id!), t]));
  const rows = tasksOfChecklist(db, c.id);
  const rowByKey = new Map(rows.map((r) => [lc(r.key), r]));
  const lost: string[] = [];
  const lose = (fieldLabel: string, taskName: string, what: string, why: string) => lost.push(`"${fieldLabel}" on task "${taskName}": ${what} ${why}.`);

  // Answers and files as they stand, by field key, before any task moves or goes.
  const values = storedValuesOfChecklist(db, c.id);
  const files = fieldFilesOfChecklist(db, c.id);

  // ── tasks: update kept ones in place, insert new ones ──
  const taskIdByKey = new Map<string, number>();
  const fresh = new Set<string>();
  newDoc.tasks.forEach((t, i) => {
    const k = lc(t.id!);
    const heading = t.isHeading === true;
    const row = rowByKey.get(k);
    if (row) {
      // Exclusivity changed on the checklist (PUT .../assignees) is the checklist's own, like its assignees.
      const oldT = oldTaskDoc.get(k);
      const ownExclusive = oldT !== undefined && row.is_assigned_exclusively !== (oldT.isAssignedExclusively ? 1 : 0);
      setTaskFromVersion(db, row.id, {
        position: i + 1,
        name: t.name,
        description: t.description ?? null,
        is_heading: heading ? 1 : 0,
        is_stop: t.isStop ? 1 : 0,
        is_assigned_exclusively: ownExclusive ? row.is_assigned_exclusively : t.isAssignedExclusively ? 1 : 0,
      });
      // Tags the new version puts on the task are added; the task's own stay.
      const newTags = (t.tags ?? []).filter((tag) => !(oldT?.tags ?? []).some((o) => o.toLowerCase() === tag.toLowerCase()));
      if (!heading && newTags.length) applyTags(db, c.workspace_id, 'task', row.id, newTags, now);
      if (heading && !row.is_heading) {
        clearTaskStateForHeading(db, row.id);
        clearTaskAssignees(db, row.id);
      } else if (!heading && row.is_heading) {
        setTaskIncompleteStatus(db, row.id);
      }
      taskIdByKey.set(k, row.id);
    } else {
      // A task the new version adds starts undated; its due rule is applied with its assignees below.
      const id = insertTaskOfVersion(db, t, { workspaceId: c.workspace_id, checklistId: c.id, position: i + 1, dueAt: null, now });
      if (!heading && t.tags?.length) applyTags(db, c.workspace_id, 'task', id, t.tags, now);
      taskIdByKey.set(k, id);
      fresh.add(k);
    }
  });

  // ── answers: carried field by field (4.4 carry table) ──
  const taskNameOf = (taskId: number) => rows.find((r) => r.id === taskId)?.name ?? '';
  deleteFieldValuesOfChecklist(db, c.id);
  for (const v of values) {
    const stored = v.value === null ? null : JSON.parse(v.value);
    const old = oldFields.get(lc(v.field_key));
    const now_ = newFields.get(lc(v.field_key));
    const oldLabel = old ? fieldName(old.task, old.f) : v.field_key;
    if (!now_ || now_.task.isHeading) {
      // Removed field (or its task became a heading). Removed Linked Checklist fields are not recorded
      // (nor Approval fields, a type this emulator's documents do not have).
      if (old && old.f.type !== 'LinkedChecklist' && isAnswered(stored)) {
        lose(oldLabel, taskNameOf(v.task_id), `the answer "${describeValue(ctx, old.f, stored)}"`, rowByKey.has(lc(old.task.id!)) && !newDoc.tasks.some((t) => lc(t.id!) === lc(old.task.id!)) ? 'was not kept: the task was removed' : 'was not kept: the field was removed');
      }
      continue;
    }
    const carried = old ? carryValue(ctx, old.f, now_.f, stored) : { value: stored, lost: [] };
    for (const part of carried.lost) lose(oldLabel, taskNameOf(v.task_id), `the answer ${part}`, 'was not kept');
    if (carried.value !== undefined && carried.value !== null) {
      putFieldValue(db, { task_id: taskIdByKey.get(lc(now_.task.id!))!, field_key: now_.f.id!, value: JSON.stringify(carried.value), updated_at: v.updated_at, updated_by: v.updated_by });
    }
  }
  // File Upload answers are files: they follow their field to its task, or go when it cannot hold them.
  for (const f of files) {
    const now_ = newFields.get(lc(f.field_key));
    if (now_ && now_.f.type === 'FileUpload' && !now_.task.isHeading) {
      moveFileToTask(db, f.id, taskIdByKey.get(lc(now_.task.id!))!);
    } else {
      const old = oldFields.get(lc(f.field_key));
      lose(old ? fieldName(old.task, old.f) : f.field_key, taskNameOf(f.task_id), `the uploaded file "${f.name}"`, now_ ? `was not kept: the field is now ${now_.f.type}` : 'was not kept: the field was removed');
      detachFileFromComments(db, f.id);
      deleteFile(db, f.id);
    }
  }

  // ── valueFrom: a new or changed binding takes the binding's value ──
  const params = c.parameters ? (JSON.parse(c.parameters) as Record<string, unknown>) : {};
  for (const [k, at] of newFields) {
    const p = bindingOf(newDoc, at.f);
    if (!p || at.task.isHeading) continue;
    const old = oldFields.get(k);
    if (old && bindingOf(oldDoc, old.f) === p) continue;
    if (!Object.hasOwn(params, p) || params[p] === null) continue;
    try {
      const v = validateAnswer(ctx, at.f, params[p], `parameters.${p}`);
      if (v !== null) putFieldValue(db, { task_id: taskIdByKey.get(lc(at.task.id!))!, field_key: at.f.id!, value: JSON.stringify(v), updated_at: now, updated_by: ctx.actor.member.id });
    } catch {
      lose(fieldName(at.task, at.f), at.task.name, `the parameter ${p} "${describeValue(ctx, at.f, params[p])}"`, 'could not fill it');
    }
  }

  // ── removed tasks: recorded, then deleted with their comments and tags ──
  const keep = new Set(newDoc.tasks.map((t) => lc(t.id!)));
  for (const r of rows) {
    if (keep.has(lc(r.key))) continue;
    untagTask(db, r.id);
    deleteTask(db, r.id);
  }

  // ── assignees, due dates, status of kept tasks ──
  const startedAt = c.started_at ?? c.created_at;
  const answers = (taskId: number) =>
    new Map(
      fieldValuesOfTask(db, taskId).map((r) => [lc(r.field_key), r.value === null ? null : JSON.parse(r.value)]),
    );
  const completedAtOf = (taskKey: string | undefined) =>
    taskKey ? (completionOfTaskKey(db, c.id, taskKey) ?? null) : null;
  const dueByRule = (t: DocTask): number | null => {
    const r = t.dueDate;
    if (!r) return null;
    const offset = (r.offsetDays ?? 0) * DAY_MS + (r.offsetHours ?? 0) * HOUR_MS;
    if (r.relativeTo === 'checklistStart') return startedAt + offset;
    if (r.relativeTo === 'taskCompletion') {
      const anchor = newDoc.tasks.find((x) => x.ref === r.task || lc(x.id ?? '') === lc(r.task ?? ''));
      const done = completedAtOf(anchor?.id);
      return done && done.status === 'Complete' && done.completed_at !== null ? done.completed_at + offset : null;
    }
    const field = newDoc.tasks.flatMap((x) => (x.fields ?? []).map((f) => ({ f, x }))).find(({ f }) => f.ref === r.field || lc(f.id ?? '') === lc(r.field ?? ''));
    if (!field) return null;
    const v = answers(taskIdByKey.get(lc(field.x.id!))!).get(lc(field.f.id!));
    return typeof v === 'string' && !Number.isNaN(Date.parse(v)) ? Date.parse(v) + offset : null;
  };

  for (const t of newDoc.tasks) {
    if (t.isHeading) continue;
    const k = lc(t.id!);
    const id = taskIdByKey.get(k)!;
    const newDefaults = resolveDocNaming(db, c.workspace_id, t.assignees ?? []);
    const oldT = oldTaskDoc.get(k);
    if (fresh.has(k) || !oldT || oldT.isHeading) {
      for (const a of newDefaults) addTaskAssignee(db, id, a.type, a.id);
      setRuleDue(db, id, dueByRule(t));
      continue;
    }
    // Assignees: the checklist's own additions and removals relative to the old template, over the new defaults.
    const oldDefaults = new Set(resolveDocNaming(db, c.workspace_id, oldT.assignees ?? []).map(refKey));
    const now_ = new Set(assigneesOfTask(db, id).map((a) => `${a.assignee_type}:${a.assignee_id}`));
    const added = [...now_].filter((x) => !oldDefaults.has(x));
    const removed = new Set([...oldDefaults].filter((x) => !now_.has(x)));
    const final = new Set([...newDefaults.map(refKey), ...added].filter((x) => !removed.has(x)));
    clearTaskAssignees(db, id);
    for (const x of final) {
      const [type, aid] = x.split(':');
      addTaskAssignee(db, id, type as AssigneeRef['type'], Number(aid));
    }
    // Due date: kept while the rule is unchanged (a date changed by hand included); else the new rule's.
    if (ruleOf(oldDoc, oldT) !== ruleOf(newDoc, t)) setRuleDue(db, id, dueByRule(t));
  }

  // A completed task with a required field the new version leaves unanswered is incomplete again.
  setChecklistVersion(db, c.id, target);
  const tasksNow = tasksOfChecklist(db, c.id);
  const state = evaluateChecklist(ctx, c.id, newDoc, tasksNow);
  for (const t of newDoc.tasks) {
    const row = tasksNow.find((r) => lc(r.key) === lc(t.id!));
    if (!row || row.status !== 'Complete') continue;
    const a = answers(row.id);
    const missing = (t.fields ?? []).filter((f) => {
      if (!f.id || f.isRequired !== true || state.hiddenFields.has(lc(f.id))) return false;
      if (f.type === 'FileUpload') return countFieldFiles(db, row.id, f.id) === 0;
      return !isAnswered(a.get(lc(f.id)));
    });
    if (missing.length) {
      setTaskUncompleted(db, row);
      recordActivity(ctx, {
        checklistId: c.id,
        taskId: row.id,
        action: 'task.reopened_by_upgrade',
        text: `The task is incomplete again: version ${target} requires ${missing.map((f) => `"${fieldName(t, f)}"`).join(', ')}, which is unanswered.`,
      });
    }
  }

  // ── custom notifications added to the checklist: kept while their task exists ──
  const notes = notificationsOfChecklist(db, c.id);
  for (const n of notes) {
    if (n.task_key && !keep.has(lc(n.task_key))) {
      lost.push(`The custom notification "${n.subject}" was not kept: the task it watched was removed.`);
      deleteChecklistNotification(db, n.id);
    }
  }

  // Checklist status follows its tasks (no event: 6.3). A Scheduled checklist stays Scheduled.
  if (c.status !== 'Scheduled') {
    const after = evaluateChecklist(ctx, c.id, newDoc, tasksOfChecklist(db, c.id));
    const outstanding = tasksOfChecklistUnordered(db, c.id).some((t) => !t.is_heading && !after.hiddenTasks.has(lc(t.key)) && t.status !== 'Complete' && t.status !== 'NotApplicable');
    if (outstanding && c.status === 'Complete') reopenChecklist(db, c.id);
    if (!outstanding && c.status === 'InProgress') setChecklistComplete(db, c.id, now);
  }
  syncStopVisibility(ctx, c.id, newDoc, undefined, true);
  clearRebuilding(db, c.id);

  for (const line of lost) recordActivity(ctx, { checklistId: c.id, action: 'checklist.upgrade_answer_lost', text: line, data: { fromVersion: c.template_version, toVersion: target } });
  recordActivity(ctx, {
    checklistId: c.id,
    action: 'checklist.upgraded',
    text: `The checklist was upgraded from version ${c.template_version} to version ${target} of the template.`,
    data: { fromVersion: c.template_version, toVersion: target, answersNotKept: lost.length },
  });
  if (opts.failWith !== undefined) throw new Error(opts.failWith);
  return { from: c.template_version, to: target, lost };
}
