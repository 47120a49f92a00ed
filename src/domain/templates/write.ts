// Template writes (spec v3 4.4): create, validate, publish a version, copy,
// archive. Permission is checked before the document is read (4.4 rule 5: 403,
// not 422); a document with any error is refused whole with 422 TEMPLATE_INVALID.
import type { Ctx } from '../../context';
import { ApiError, notFound, validationError } from '../../errors';
import { assertCanArchiveTemplate, assertCanCreateTemplate, assertCanEditTemplate, findFolder } from '../access/templates';
import { parseStoredDocument, type TemplateDocument } from '../../rows/template-document';
import { knownIds, stripIds } from './ids';
import { findTemplate, findVersion, readableTemplate, templateDetail } from './read';
import { saveNewTemplate, saveVersion } from './save';
import { validateDocument, type ValidateOptions } from './validate';
import type { ValidationResult } from './violations';
import { templateListRow } from './list-row';
import { copyPermissions, grantRunAndView } from '../../rows/template-permissions';
import { setTemplateArchivedFlag, templateById } from '../../rows/templates';

export function templateInvalid(result: ValidationResult): ApiError {
  const errors = result.violations.filter((v) => v.severity === 'error');
  const first = errors[0];
  return new ApiError(
    422,
    'TEMPLATE_INVALID',
    `The template document has ${errors.length} error${errors.length === 1 ? '' : 's'}; the first: ${first ? `${first.path}: ${first.message}` : 'unknown'}`,
    { violations: errors },
  );
}

/** A missing body is a request error, not a document error. */
function requireDocument(document: unknown): void {
  if (document === undefined) throw validationError('Send the template document as the JSON body (docs/template-document.md).');
}

function resolveFolder(ctx: Ctx, name: string | undefined) {
  if (name === undefined) return undefined;
  const f = findFolder(ctx, name);
  if (!f) throw validationError(`No Library folder is named "${name}".`, 'folder');
  return f;
}

const createdBy = (ctx: Ctx) => ctx.actor.member.id;

/** A member who creates a template may run it: they get a RunAndView rule (docs/template-document.md). */
function grantCreator(ctx: Ctx, templateId: number): void {
  if (ctx.actor.kind !== 'member' || ctx.actor.isAdmin) return;
  grantRunAndView(ctx.db, templateId, ctx.actor.member.id);
}

function detailOf(ctx: Ctx, templateId: number, version: number) {
  const t = templateById(ctx.db, templateId)!;
  return templateDetail(ctx, t, findVersion(ctx, t, version));
}

export function createTemplate(ctx: Ctx, input: { document: unknown; folder?: string }) {
  const folder = resolveFolder(ctx, input.folder);
  assertCanCreateTemplate(ctx, folder);
  requireDocument(input.document);
  const { result, doc } = validateDocument(input.document, { db: ctx.db, workspaceId: ctx.workspace.id, ids: 'forbidden' });
  if (!doc) throw templateInvalid(result);
  const saved = saveNewTemplate(ctx.db, { workspaceId: ctx.workspace.id, folderId: folder?.id ?? null, doc, createdBy: createdBy(ctx), now: ctx.now() });
  grantCreator(ctx, saved.templateId);
  return detailOf(ctx, saved.templateId, saved.version);
}

export function versionOptions(ctx: Ctx, t: import('../../rows/templates').TemplateRow): ValidateOptions {
  const latest = parseStoredDocument(findVersion(ctx, t).document);
  return { db: ctx.db, workspaceId: ctx.workspace.id, ids: 'known', template: { key: t.key, knownIds: knownIds(ctx.db, t.id), latest } };
}

/** POST /v3/templates/validate: cheap; `forTemplate` validates an edit of that template. */
export function validateTemplate(ctx: Ctx, input: { document: unknown; forTemplate?: string }): ValidationResult {
  let opts: ValidateOptions = { db: ctx.db, workspaceId: ctx.workspace.id, ids: 'forbidden' };
  if (input.forTemplate !== undefined) {
    const { t } = readableTemplate(ctx, input.forTemplate);
    opts = versionOptions(ctx, t);
  }
  return validateDocument(input.document, opts).result;
}

export function publishTemplateVersion(ctx: Ctx, input: { key: string; document: unknown }) {
  const t = findTemplate(ctx, input.key);
  assertCanEditTemplate(ctx, t, findVersion(ctx, t).name, 'publish a version of it');
  requireDocument(input.document);
  const { result, doc } = validateDocument(input.document, versionOptions(ctx, t));
  if (!doc) throw templateInvalid(result);
  const version = saveVersion(ctx.db, ctx.workspace.id, t.id, doc, createdBy(ctx), ctx.now());
  return detailOf(ctx, t.id, version);
}

/** POST /v3/templates/{key}/copy: a new template (new keys) from a version of this one. */
export function copyTemplate(ctx: Ctx, input: { key: string; name?: string; version?: number; folder?: string }) {
  const t = findTemplate(ctx, input.key);
  const latest = findVersion(ctx, t);
  assertCanEditTemplate(ctx, t, latest.name, 'copy it');
  const folder = input.folder !== undefined ? resolveFolder(ctx, input.folder) : undefined;
  if (folder) assertCanCreateTemplate(ctx, folder);
  const source = findVersion(ctx, t, input.version);
  const doc: TemplateDocument = stripIds(parseStoredDocument(source.document));
  doc.name = input.name ?? `${source.name} (copy)`;
  const { result, doc: valid } = validateDocument(doc, { db: ctx.db, workspaceId: ctx.workspace.id, ids: 'forbidden' });
  if (!valid) throw templateInvalid(result);
  const saved = saveNewTemplate(ctx.db, {
    workspaceId: ctx.workspace.id,
    folderId: folder ? folder.id : t.folder_id,
    doc: valid,
    createdBy: createdBy(ctx),
    now: ctx.now(),
  });
  // The copy keeps who may see and run it.
  copyPermissions(ctx.db, t.id, saved.templateId);
  grantCreator(ctx, saved.templateId);
  return detailOf(ctx, saved.templateId, saved.version);
}

/** POST (archive) and DELETE (unarchive) /v3/templates/{key}/archive: Administrators or the workspace key (3, 5.6). */
export function setTemplateArchived(ctx: Ctx, input: { key: string; archived?: boolean }) {
  const t = findTemplate(ctx, input.key);
  assertCanArchiveTemplate(ctx);
  const archived = input.archived !== false;
  setTemplateArchivedFlag(ctx.db, t.id, archived);
  const row = { ...t, is_archived: archived ? 1 : 0 };
  return templateListRow(ctx, row, findVersion(ctx, row));
}

export { notFound };
