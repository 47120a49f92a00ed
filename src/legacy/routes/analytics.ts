// GET /api/analytics/all (v2; legacy spec 4.6): an overview of checklist and task activity in
// a period of whole UTC days. The spec leaves the object "not shown"; designed in docs/legacy.md.
// Counts only checklists the key may read (all for Administrators and the workspace key).
import type { Ctx } from '../../context';
import { readableChecklists } from '../../domain/access/checklists';
import type { ChecklistRow } from '../../domain/checklist-lookup';
import { compareText } from '../../domain/paging';
import { memberById, fullName } from '../../rows/people';
import type { TaskRow } from '../../rows/tasks';
import { defineLegacyRoute } from '../define';
import { bad, param } from '../params';
import { templateNameById } from '../../rows/templates';
import { checklistCommentsBetween, checklistTasksOfWorkspace, checklistsOfWorkspace } from '../../rows/legacy-searches';
import { DAY_MS } from '../../clock';

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function day(v: string, name: string): number {
  const m = DATE.exec(v);
  const ms = m ? Date.UTC(+m[1], +m[2] - 1, +m[3]) : NaN;
  if (!m || Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== v) throw bad(`${name} must be a date YYYY-MM-DD.`);
  return ms;
}

const inRange = (t: number | null, from: number, to: number) => t !== null && t >= from && t < to;

export function analyticsLegacy(ctx: Ctx, q: URLSearchParams) {
  const startText = param(q, 'periodStartDate');
  if (!startText) throw bad('periodStartDate is required: a date YYYY-MM-DD.');
  const from = day(startText, 'periodStartDate');
  const endText = param(q, 'periodEndDate') ?? new Date(ctx.now()).toISOString().slice(0, 10);
  const endDay = day(endText, 'periodEndDate');
  if (from > endDay) throw bad('periodStartDate must not be later than periodEndDate.');
  const to = endDay + DAY_MS;
  const now = ctx.now();

  const readable = readableChecklists(ctx);
  const checklists = checklistsOfWorkspace<ChecklistRow>(ctx.db, ctx.workspace.id).filter(readable);
  const byId = new Map(checklists.map((c) => [c.id, c]));
  const tasks = checklistTasksOfWorkspace<TaskRow>(ctx.db, ctx.workspace.id).filter((t) => byId.has(t.checklist_id!));
  const comments = checklistCommentsBetween(ctx.db, ctx.workspace.id, from, to).filter((c) => byId.has(c.checklist_id));

  const templates = new Map<number, { templateKey: string; templateName: string; checklistsCreated: number; checklistsCompleted: number; tasksCompleted: number }>();
  const tpl = (templateId: number) => {
    let row = templates.get(templateId);
    if (!row) {
      const t = templateNameById(ctx.db, templateId)!;
      row = { templateKey: t.key, templateName: t.name, checklistsCreated: 0, checklistsCompleted: 0, tasksCompleted: 0 };
      templates.set(templateId, row);
    }
    return row;
  };
  const members = new Map<number, { memberId: number; fullName: string | null; tasksCompleted: number; commentsAdded: number }>();
  const person = (id: number | null) => {
    if (id === null) return undefined;
    let row = members.get(id);
    if (!row) {
      const m = memberById(ctx.db, id);
      if (!m || m.is_anonymous) return undefined;
      row = { memberId: id, fullName: fullName(m) ?? m.email ?? null, tasksCompleted: 0, commentsAdded: 0 };
      members.set(id, row);
    }
    return row;
  };

  const out = {
    periodStartDate: startText,
    periodEndDate: endText,
    checklistsCreated: 0,
    checklistsCompleted: 0,
    tasksCompleted: 0,
    tasksNotApplicable: 0,
    tasksDue: 0,
    tasksOverdue: 0,
    commentsAdded: comments.length,
    templates: [] as ReturnType<typeof tpl>[],
    members: [] as NonNullable<ReturnType<typeof person>>[],
  };
  for (const c of checklists) {
    if (inRange(c.created_at, from, to)) {
      out.checklistsCreated++;
      tpl(c.template_id).checklistsCreated++;
    }
    if (c.status === 'Complete' && inRange(c.completed_at, from, to)) {
      out.checklistsCompleted++;
      tpl(c.template_id).checklistsCompleted++;
    }
  }
  for (const t of tasks) {
    if (t.status === 'Complete' && inRange(t.completed_at, from, to)) {
      out.tasksCompleted++;
      tpl(byId.get(t.checklist_id!)!.template_id).tasksCompleted++;
      const p = person(t.completed_by);
      if (p) p.tasksCompleted++;
    }
    if (t.status === 'NotApplicable' && inRange(t.not_applicable_at, from, to)) out.tasksNotApplicable++;
    if (inRange(t.due_at, from, to)) {
      out.tasksDue++;
      if (t.due_at! < now && t.status !== 'Complete' && t.status !== 'NotApplicable') out.tasksOverdue++;
    }
  }
  for (const c of comments) {
    const p = person(c.author_id);
    if (p) p.commentsAdded++;
  }
  out.templates = [...templates.values()].sort((a, b) => compareText(a.templateName, b.templateName) || a.templateKey.localeCompare(b.templateKey));
  out.members = [...members.values()].sort((a, b) => compareText(a.fullName ?? '', b.fullName ?? '') || a.memberId - b.memberId);
  return out;
}

export const analyticsLegacyRoutes = [defineLegacyRoute({ method: 'GET', path: '/api/analytics/all', v2: true, handler: (ctx, r) => analyticsLegacy(ctx, r.query) })];
