// Linked Checklist controls (spec v3 6.3 new_checklist "automatic creation by a Linked
// Checklist control"; docs/upgrades.md "Linked checklists"). When a checklist starts, each
// Linked Checklist field of it starts a child checklist from the latest version of the
// linked template and holds the link ({checklistKey}); new_checklist fires for each child.
// The link is read from the parent (the field's value) and from both sides at
// GET /v3/checklists/{key}/links.
import type { Ctx } from '../../context';
import { recordActivity } from '../activity';
import { assertCanRead, readableChecklists } from '../access/checklists';
import { checklistById, checklistReference, findChecklist, type ChecklistRow } from '../checklist-lookup';
import { startChecklist } from './start';
import { versionDocument } from '../../rows/template-document';
import { syncStopVisibility } from '../tasks/stop-visibility';
import type { Db } from '../../store/open';
import { templateByLatestName, type NamedTemplateRow } from '../../rows/templates';
import { checklistTaskByKey } from '../../rows/tasks';
import { checklistAnswersEqualTo, checklistKeyAnswersOf, fieldValueOf, putFieldValue, type LinkAnswerRow } from '../../rows/field-values';
import { checklistByKey } from '../../rows/checklists';

/** Children start children; a ring of templates linking to each other stops here. */
export const MAX_LINK_DEPTH = 5;

export type LinkedTemplate = NamedTemplateRow;

/** The template a Linked Checklist field names (by the name of its latest version). */
export function linkedTemplate(db: Db, workspaceId: number, name: unknown): LinkedTemplate | undefined {
  if (typeof name !== 'string') return undefined;
  return templateByLatestName(db, workspaceId, name.trim());
}

const docOf = (db: Db, templateId: number, version: number) =>
  versionDocument(db, templateId, version)!;

/**
 * Starts the child checklist of every Linked Checklist field of a checklist that has just
 * started (never of an upgraded one: upgrades start nothing and fire no new_checklist).
 * A field already answered (a parameter named a checklist) keeps its answer.
 */
export function startLinkedChecklists(ctx: Ctx, parentId: number, depth = 0): void {
  const parent = checklistById(ctx, parentId);
  if (!parent) return;
  const doc = docOf(ctx.db, parent.template_id, parent.template_version);
  for (const t of doc.tasks) {
    if (t.isHeading) continue;
    for (const f of t.fields ?? []) {
      if (f.type !== 'LinkedChecklist' || !f.id) continue;
      const task = checklistTaskByKey(ctx.db, parentId, t.id!);
      if (!task) continue;
      const answered = fieldValueOf(ctx.db, task.id, f.id);
      if (answered && answered.value !== null && answered.value !== 'null') continue;
      const label = typeof f.label === 'string' && f.label.trim() ? f.label.trim() : 'Linked Checklist';
      const lt = linkedTemplate(ctx.db, ctx.workspace.id, f.template);
      const why = !lt
        ? `no template is named "${String(f.template)}"`
        : lt.is_archived === 1
          ? `template "${lt.name}" is archived`
          : depth >= MAX_LINK_DEPTH
            ? `linked checklists are started at most ${MAX_LINK_DEPTH} levels deep`
            : undefined;
      if (why || !lt) {
        recordActivity(ctx, { checklistId: parentId, taskId: task.id, action: 'checklist.link_not_started', text: `The field "${label}" started no linked checklist: ${why}.`, data: { fieldKey: f.id } });
        continue;
      }
      const now = ctx.now();
      const child = startChecklist(ctx.db, {
        workspaceId: ctx.workspace.id,
        templateId: lt.id,
        version: lt.latest_version,
        doc: docOf(ctx.db, lt.id, lt.latest_version),
        name: `${parent.name}: ${lt.name}`,
        createdBy: parent.created_by,
        now,
      });
      putFieldValue(ctx.db, { task_id: task.id, field_key: f.id, value: JSON.stringify({ checklistKey: child.key }), updated_at: now, updated_by: parent.created_by });
      syncStopVisibility(ctx, parentId, doc); // the answer may be what a condition tests
      recordActivity(ctx, {
        checklistId: parentId,
        taskId: task.id,
        action: 'checklist.link_started',
        text: `The field "${label}" started the linked checklist "${parent.name}: ${lt.name}".`,
        data: { fieldKey: f.id, checklistKey: child.key },
      });
      recordActivity(ctx, {
        checklistId: child.id,
        action: 'checklist.created',
        text: `The checklist was started by the field "${label}" of checklist "${parent.name}".`,
        data: { parentChecklistKey: parent.key, taskKey: t.id, fieldKey: f.id },
      });
      ctx.hooks.event?.(ctx, 'new_checklist', { checklistId: child.id });
      startLinkedChecklists(ctx, child.id, depth + 1);
    }
  }
}

type LinkRow = LinkAnswerRow;

const linkOf = (ctx: Ctx, row: ChecklistRow, r: Pick<LinkRow, 'task_key' | 'field_key'>) => ({
  checklist: checklistReference(ctx, row),
  taskKey: r.task_key,
  fieldKey: r.field_key,
});

/**
 * GET /v3/checklists/{key}/links: the checklist this one was linked from (the Linked
 * Checklist field holding it) and the checklists its own Linked Checklist fields hold.
 */
export function checklistLinks(ctx: Ctx, input: { checklistKey: string }) {
  const c = findChecklist(ctx, input.checklistKey);
  assertCanRead(ctx, c);
  const holding = checklistAnswersEqualTo(ctx.db, ctx.workspace.id, JSON.stringify({ checklistKey: c.key }));
  const readable = readableChecklists(ctx);
  const parents = holding.map((r) => ({ row: checklistById(ctx, r.checklist_id)!, r })).filter((x) => x.row && readable(x.row));
  const own = checklistKeyAnswersOf(ctx.db, c.id);
  const children = own
    .map((r) => {
      const key = (JSON.parse(r.value) as { checklistKey?: string }).checklistKey;
      const row = key ? checklistByKey(ctx.db, ctx.workspace.id, key) : undefined;
      return row && readable(row) ? linkOf(ctx, row, r) : undefined;
    })
    .filter((x): x is ReturnType<typeof linkOf> => x !== undefined);
  return {
    checklistKey: c.key,
    linkedFrom: parents.map((p) => linkOf(ctx, p.row, p.r)),
    linkedTo: children,
  };
}
