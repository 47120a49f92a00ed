// Legacy template lookups (legacy spec 2, 4.5): active templates, a template's tasks, a
// template task's controls filtered by contentType (ALL, ALLINPUT or a control type). Rows
// are {id, name} and {id, name, type} with GUID ids, from each template's latest version.
// Like GET /v3/templates, the list is not filtered by permission; an empty result is 404.
import type { Ctx } from '../../context';
import { notFound } from '../../errors';
import { compareText } from '../../domain/paging';
import { parseStoredDocument, type DocTask } from '../../rows/template-document';
import { fieldName, findTemplate, findVersion } from '../../domain/templates/read';
import { ANSWERABLE } from '../../domain/template-format/document-schema';
import { defineLegacyRoute, legacyError } from '../define';
import { param, requiredGuidParam } from '../params';
import { controlType } from './tasks';
import { latestDocumentsHolding, latestTemplateRows } from '../../rows/templates';

export function templatesLegacy(ctx: Ctx) {
  const rows = latestTemplateRows(ctx.db, ctx.workspace.id)
    .filter((r) => r.is_archived === 0)
    .map((r) => ({ key: r.key, name: r.v_name }))
    .sort((a, b) => compareText(a.name, b.name) || a.key.localeCompare(b.key));
  if (rows.length === 0) throw legacyError(404, 'No active templates.');
  return rows.map((r) => ({ id: r.key, name: r.name }));
}

export function templateTasksLegacy(ctx: Ctx, q: URLSearchParams) {
  const key = requiredGuidParam(q, 'templateKey');
  const t = findTemplate(ctx, key);
  const tasks = parseStoredDocument(findVersion(ctx, t).document).tasks ?? [];
  if (tasks.length === 0) throw legacyError(404, 'The template has no tasks.');
  return tasks.map((x) => ({ id: x.id!, name: x.name }));
}

/** The template task of that key in the latest version of a workspace template. */
function templateTask(ctx: Ctx, taskKey: string): DocTask {
  for (const document of latestDocumentsHolding(ctx.db, ctx.workspace.id, taskKey)) {
    const task = (parseStoredDocument(document).tasks ?? []).find((x) => x.id?.toLowerCase() === taskKey.toLowerCase());
    if (task) return task;
  }
  throw notFound('TASK_NOT_FOUND', `No template task with key ${taskKey} exists in this workspace.`);
}

export function taskContentLegacy(ctx: Ctx, q: URLSearchParams) {
  const taskKey = requiredGuidParam(q, 'taskKey');
  const type = controlType(param(q, 'contentType') ?? 'ALL', 'contentType', ['ALL', 'ALLINPUT']);
  const task = templateTask(ctx, taskKey);
  const rows = (task.fields ?? [])
    .map((f, i) => ({ id: f.id!, name: fieldName(f, i + 1), type: f.type }))
    .filter((f) => type === 'ALL' || (type === 'ALLINPUT' ? ANSWERABLE.has(f.type) : f.type === type));
  if (rows.length === 0) throw legacyError(404, 'No controls match.');
  return rows;
}

export const templateLegacyRoutes = [
  defineLegacyRoute({ method: 'GET', path: '/api/template/templates', handler: (ctx) => templatesLegacy(ctx) }),
  defineLegacyRoute({ method: 'GET', path: '/api/template/tasks', handler: (ctx, r) => templateTasksLegacy(ctx, r.query) }),
  defineLegacyRoute({ method: 'GET', path: '/api/template/task-content', handler: (ctx, r) => taskContentLegacy(ctx, r.query) }),
];
