// Template reads (spec v3 4.4): list, get (template detail), export, versions.
import type { Ctx } from '../../context';
import { notFound } from '../../errors';
import { iso } from '../../clock';
import { userRef } from '../users';
import { compareText } from '../paging';
import { assertCanReadTemplate } from '../access/templates';
import { parseStoredDocument, type DocField } from '../../rows/template-document';
import { templateListRow, templateUrl } from './list-row';
import { templateByKey, templateVersion, templatesOfWorkspace, versionsNewestFirst, versionsOldestFirst, type TemplateRow, type TemplateVersionRow } from '../../rows/templates';
import { dataSetLinkView, type DataSetLinkDoc } from './datasets';
import { displayName } from '../template-format/content-types';
import { labelOrUnlabelled } from '../field-label';

export function findTemplate(ctx: Ctx, key: string): TemplateRow {
  const t = templateByKey(ctx.db, ctx.workspace.id, key);
  if (!t) throw notFound('TEMPLATE_NOT_FOUND', `No template with key ${key} exists in this workspace.`);
  return t;
}

export function findVersion(ctx: Ctx, t: TemplateRow, version?: number): TemplateVersionRow {
  const v = templateVersion(ctx.db, t.id, version ?? t.latest_version);
  if (!v) throw notFound('TEMPLATE_NOT_FOUND', `Template ${t.key} has no version ${version}; its latest version is ${t.latest_version}.`);
  return v;
}

/** Looks the template (and version) up, then checks read permission (5.10: lookup first). */
export function readableTemplate(ctx: Ctx, key: string, version?: number): { t: TemplateRow; v: TemplateVersionRow } {
  const t = findTemplate(ctx, key);
  const latest = findVersion(ctx, t);
  assertCanReadTemplate(ctx, t, latest.name);
  return { t, v: version === undefined ? latest : findVersion(ctx, t, version) };
}

/** GET /v3/templates: every template in one page, never filtered by permission (4.4). */
export function listTemplates(ctx: Ctx, input: { includeAllVersions?: boolean; includeArchived?: boolean }) {
  const rows = templatesOfWorkspace(ctx.db, ctx.workspace.id);
  const items: ReturnType<typeof templateListRow>[] = [];
  for (const t of rows) {
    if (t.is_archived === 1 && input.includeArchived !== true) continue;
    const all = versionsOldestFirst(ctx.db, t.id);
    const chosen = input.includeAllVersions === true ? all : all.filter((v) => v.version === t.latest_version);
    for (const v of chosen) items.push(templateListRow(ctx, t, v));
  }
  items.sort((a, b) => compareText(a.name, b.name) || a.key.localeCompare(b.key) || a.version - b.version);
  return { items, hasMore: false, total: items.length };
}

/** Name of a field as the API reports it: its label, or "Unlabelled <type> Content at Position <n>" (6.2). */
export function fieldName(f: DocField, position: number): string {
  // The template view names the type as content types show it ('Short Text'), and trims the label.
  return labelOrUnlabelled(typeof f.label === 'string' ? f.label.trim() : undefined, displayName(f.type), position);
}

export function fieldView(ctx: Ctx, f: DocField, position: number) {
  const out: Record<string, unknown> = { key: f.id, name: fieldName(f, position), type: f.type, isRequired: f.isRequired === true };
  if (f.type === 'Date') out.mode = (f.mode as string | undefined) ?? 'date';
  if (f.type === 'ShortText') {
    if (f.regex !== undefined) out.regex = f.regex;
    if (f.regexMessage !== undefined) out.regexMessage = f.regexMessage;
  }
  if (f.type === 'Members') out.selectionMode = (f.selectionMode as string | undefined) ?? 'multiple';
  if (f.dataSet && ['DropDown', 'MultiChoice', 'SubTasks', 'Table'].includes(f.type)) {
    const link = dataSetLinkView(ctx.db, ctx.workspace.id, f.type, f.dataSet as DataSetLinkDoc);
    if (link) out.dataSet = link;
  }
  return out;
}

/** Template detail (2.5): list row plus latestVersion, isLatest and tasks in order. */
export function templateDetail(ctx: Ctx, t: TemplateRow, v: TemplateVersionRow) {
  const doc = parseStoredDocument(v.document);
  return {
    ...templateListRow(ctx, t, v),
    latestVersion: t.latest_version,
    isLatest: v.version === t.latest_version,
    tasks: (doc.tasks ?? []).map((task, i) => ({
      key: task.id,
      name: task.name,
      isHeading: task.isHeading === true,
      order: i + 1,
      fields: (task.fields ?? []).map((f, fi) => fieldView(ctx, f, fi + 1)),
    })),
  };
}

export function getTemplate(ctx: Ctx, input: { key: string; version?: number }) {
  const { t, v } = readableTemplate(ctx, input.key, input.version);
  return templateDetail(ctx, t, v);
}

/** GET /v3/templates/{key}/document: the stored document of the version, ids included (4.4 rule 3). */
export function exportTemplate(ctx: Ctx, input: { key: string; version?: number }) {
  const { v } = readableTemplate(ctx, input.key, input.version);
  return structuredClone(parseStoredDocument(v.document));
}

export function versionRow(ctx: Ctx, t: TemplateRow, v: TemplateVersionRow) {
  return {
    key: t.key,
    version: v.version,
    isLatest: v.version === t.latest_version,
    name: v.name,
    description: v.description ?? undefined,
    createdDateTime: iso(v.created_at),
    createdBy: userRef(ctx.db, v.created_by),
    url: templateUrl(ctx, t.key),
  };
}

/** GET /v3/templates/{key}/versions: every version, newest first, in one page. */
export function listVersions(ctx: Ctx, input: { key: string }) {
  const { t } = readableTemplate(ctx, input.key);
  const items = versionsNewestFirst(ctx.db, t.id).map((v) => versionRow(ctx, t, v));
  return { items, hasMore: false, total: items.length };
}
