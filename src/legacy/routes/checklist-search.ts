// Legacy checklist searches (legacy spec 4.1): find (with createIfNotExists), details,
// tasks and uploaded-files. Paged with pageSize (default 3, at most 10) and pageNumber
// (from 1); an empty page is 404 (legacy spec 7, 8). Each reads through the same tables
// and read rule as v3 (spec v3 5.4): a member sees only the checklists they could open.
import type { Ctx } from '../../context';
import { notFound } from '../../errors';
import { readableChecklists } from '../../domain/access/checklists';
import { createChecklist } from '../../domain/checklists/create';
import { findChecklist, type ChecklistRow } from '../../domain/checklist-lookup';
import { templateIdOf } from '../../domain/checklists/list';
import { assertCanRead } from '../../domain/access/checklists';
import { fieldFiles } from '../../domain/tasks/files';
import type { TaskRow } from '../../rows/tasks';
import { parseStoredDocument, type DocField, type DocTask } from '../../rows/template-document';
import { fieldName } from '../../domain/templates/read';
import { defineLegacyRoute, legacyError } from '../define';
import { bad, boolParam, guidParam, page, paging, param, requiredGuidParam } from '../params';
import { canReadTask, targetOf } from '../lookup';
import { checklistAndTemplate, legacyChecklist, legacyFile, legacyTask } from '../shapes';
import { contentId, taskContentId } from '../content-ids';
import { checkChecklistName } from './checklists';
import { templateById, versionsHolding } from '../../rows/templates';
import { searchChecklists, taskCopiesOfVersion, tasksWithKey, type ChecklistSearch } from '../../rows/legacy-searches';
import { tasksOfChecklist } from '../../rows/tasks';
import { DAY_MS } from '../../clock';

/** How long a completed checklist counts as RECENTLYCOMPLETE (designed: docs/legacy.md). */
export const RECENT_DAYS = 7;

const CHECKLIST_STATUSES = ['ALL', 'SCHEDULED', 'INPROGRESS', 'RECENTLYCOMPLETE', 'COMPLETE'] as const;

function checklistStatus(q: URLSearchParams): (typeof CHECKLIST_STATUSES)[number] {
  const v = (param(q, 'status') ?? 'ALL').toUpperCase();
  if (!(CHECKLIST_STATUSES as readonly string[]).includes(v)) throw bad(`status must be one of ${CHECKLIST_STATUSES.join(', ')}.`);
  return v as (typeof CHECKLIST_STATUSES)[number];
}

interface Filters {
  templateId: number;
  name?: string;
  tag?: string;
  status: (typeof CHECKLIST_STATUSES)[number];
}

/** Checklists of a template matching the filters, newest first, that the actor may read. Archived ones are left out. */
function matching(ctx: Ctx, f: Filters): ChecklistRow[] {
  const search: ChecklistSearch = { workspaceId: ctx.workspace.id, templateId: f.templateId, name: f.name, tag: f.tag };
  switch (f.status) {
    case 'SCHEDULED':
      search.status = 'Scheduled';
      break;
    case 'INPROGRESS':
      search.status = 'InProgress';
      break;
    case 'COMPLETE':
      search.status = 'Complete';
      break;
    case 'RECENTLYCOMPLETE':
      search.status = 'Complete';
      search.completedSince = ctx.now() - RECENT_DAYS * DAY_MS;
      break;
    default:
      break;
  }
  const rows = searchChecklists<ChecklistRow>(ctx.db, search);
  const readable = readableChecklists(ctx);
  return rows.filter(readable);
}

const none = (what: string) => legacyError(404, `No ${what} match.`);

export function findLegacy(ctx: Ctx, q: URLSearchParams) {
  const templateKey = requiredGuidParam(q, 'templateKey');
  const name = param(q, 'checklistName');
  const f: Filters = { templateId: 0, name, tag: param(q, 'tag'), status: checklistStatus(q) };
  const create = boolParam(q, 'createIfNotExists', false);
  const p = paging(q);
  if (create) checkChecklistName(name);
  f.templateId = templateIdOf(ctx, templateKey);
  const rows = matching(ctx, f);
  if (rows.length === 0 && create) {
    // A GET that writes: one transaction of its own (a savepoint inside the router's, if any).
    const row = ctx.db.transaction(() => findChecklist(ctx, createChecklist(ctx, { templateKey, name: name!.trim() }).key))();
    return [legacyChecklist(ctx, row)];
  }
  const out = page(rows, p);
  if (out.length === 0) throw none('checklists');
  return out.map((r) => legacyChecklist(ctx, r));
}

const checklistTasks = (ctx: Ctx, c: ChecklistRow) =>
  tasksOfChecklist(ctx.db, c.id).map((t) => legacyTask(ctx, targetOf(ctx, t)));

const withTasks = (ctx: Ctx, c: ChecklistRow) => ({ ...legacyChecklist(ctx, c), tasks: checklistTasks(ctx, c) });

export function detailsLegacy(ctx: Ctx, q: URLSearchParams) {
  const templateKey = guidParam(q, 'templateKey');
  const checklistKey = guidParam(q, 'checklistKey');
  const status = checklistStatus(q);
  const p = paging(q);
  if (!templateKey && !checklistKey) throw bad('templateKey or checklistKey is required: a GUID.');
  if (checklistKey) {
    const c = findChecklist(ctx, checklistKey);
    assertCanRead(ctx, c);
    if (p.pageNumber !== 1) throw none('checklists');
    return [withTasks(ctx, c)];
  }
  const out = page(matching(ctx, { templateId: templateIdOf(ctx, templateKey!), name: param(q, 'checklistName'), tag: param(q, 'tag'), status }), p);
  if (out.length === 0) throw none('checklists');
  return out.map((c) => withTasks(ctx, c));
}

const TASK_STATUSES = ['ALL', 'OPEN', 'COMPLETE'] as const;

/** Every copy of a template task on the checklists the actor may read (newest checklist first), or the standalone task of that key. */
export function tasksLegacy(ctx: Ctx, q: URLSearchParams) {
  const taskKey = requiredGuidParam(q, 'taskKey');
  const status = (param(q, 'status') ?? 'ALL').toUpperCase();
  if (!(TASK_STATUSES as readonly string[]).includes(status)) throw bad(`status must be one of ${TASK_STATUSES.join(', ')}.`);
  const p = paging(q);
  const rows = tasksWithKey<TaskRow>(ctx.db, ctx.workspace.id, taskKey).sort((a, b) => b.created_at - a.created_at || b.id - a.id);
  const picked = rows
    .filter((t) => status === 'ALL' || (!t.is_heading && (status === 'OPEN' ? (t.status ?? 'Incomplete') === 'Incomplete' : t.status === 'Complete' || t.status === 'NotApplicable')))
    .map((t) => targetOf(ctx, t))
    .filter((t) => canReadTask(ctx, t));
  const out = page(picked, p);
  if (out.length === 0) throw none('tasks');
  return out.map((t) => legacyTask(ctx, t));
}

/** Where a control key lives: the template versions whose documents carry it, with its task. */
function controlHomes(ctx: Ctx, key: string): { templateId: number; version: number; task: DocTask; field: DocField; position: number }[] {
  const versions = versionsHolding(ctx.db, ctx.workspace.id, key);
  const out: ReturnType<typeof controlHomes> = [];
  for (const v of versions) {
    for (const task of parseStoredDocument(v.document).tasks ?? []) {
      const i = (task.fields ?? []).findIndex((f) => f.id?.toLowerCase() === key.toLowerCase());
      if (i >= 0) out.push({ templateId: v.template_id, version: v.version, task, field: task.fields![i], position: i + 1 });
    }
  }
  return out;
}

export function uploadedFilesLegacy(ctx: Ctx, q: URLSearchParams) {
  const key = requiredGuidParam(q, 'taskContentKey');
  const p = paging(q);
  const homes = controlHomes(ctx, key).filter((h) => h.field.type === 'FileUpload');
  if (homes.length === 0) throw notFound('CONTROL_NOT_FOUND', `No File Upload control with key ${key} exists in this workspace.`);
  const latest = homes.reduce((a, b) => (b.templateId === a.templateId && b.version > a.version ? b : a));
  const tpl = templateById(ctx.db, latest.templateId)!;
  // Newest checklist first across every version that has the control (docs/legacy.md), not version by version.
  const rows = homes.flatMap((h) => taskCopiesOfVersion<TaskRow>(ctx.db, h.templateId, h.version, h.task.id!).map((row) => ({ row, fieldKey: h.field.id! })));
  rows.sort((a, b) => b.row.c_created - a.row.c_created || b.row.checklist_id! - a.row.checklist_id!);
  const files: ReturnType<typeof fileRow>[] = [];
  for (const { row, fieldKey } of rows) {
    const t = targetOf(ctx, row);
    if (!canReadTask(ctx, t)) continue;
    for (const f of fieldFiles(ctx, row.id, fieldKey)) files.push(fileRow(ctx, t, fieldKey, f));
  }
  return {
    control: {
      taskContentID: taskContentId(ctx.db, ctx.workspace.id, latest.field.id!),
      key: latest.field.id!,
      name: fieldName(latest.field, latest.position),
      contentType: latest.field.type,
      taskKey: latest.task.id ?? null,
      taskName: latest.task.name,
      templateKey: tpl.key,
    },
    files: page(files, p),
    totalFiles: files.length,
  };
}

function fileRow(ctx: Ctx, t: ReturnType<typeof targetOf>, fieldKey: string, f: ReturnType<typeof fieldFiles>[number]) {
  return {
    ...legacyFile(ctx, f),
    taskId: t.task.id,
    taskKey: t.task.key,
    contentID: contentId(ctx.db, t.task.id, fieldKey),
    ...checklistAndTemplate(ctx, t.checklist),
  };
}

export const checklistSearchLegacyRoutes = [
  defineLegacyRoute({ method: 'GET', path: '/api/checklist/find', handler: (ctx, r) => findLegacy(ctx, r.query) }),
  defineLegacyRoute({ method: 'GET', path: '/api/checklist/details', handler: (ctx, r) => detailsLegacy(ctx, r.query) }),
  defineLegacyRoute({ method: 'GET', path: '/api/checklist/tasks', handler: (ctx, r) => tasksLegacy(ctx, r.query) }),
  defineLegacyRoute({ method: 'GET', path: '/api/checklist/uploaded-files', handler: (ctx, r) => uploadedFilesLegacy(ctx, r.query) }),
];
