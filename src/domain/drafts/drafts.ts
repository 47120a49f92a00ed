// Template drafts (spec v3 4.4 rule 4; docs/template-document.md "Drafts"): stored,
// uncommitted documents, started empty or from a template version, patched with
// JSON Merge Patch, validated any time, committed asynchronously.
import type { Ctx } from '../../context';
import { ApiError, conflict, forbidden, notFound, validationError } from '../../errors';
import { iso } from '../../clock';
import { newGuid } from '../../ids';
import { userRef } from '../users';
import { memberById, displayName } from '../../rows/people';
import { assertCanCreateTemplate, assertCanEditTemplate } from '../access/templates';
import { parseStoredDocument } from '../../rows/template-document';
import { findVersion, readableTemplate } from '../templates/read';
import { versionOptions } from '../templates/write';
import { saveNewTemplate, saveVersion } from '../templates/save';
import { validateDocument, type ValidateOptions } from '../templates/validate';
import type { ValidationResult } from '../templates/violations';
import { LIMITS } from '../template-format/document-schema';
import { depthOf, mergePatch } from './merge-patch';
import { templateById as templateRowById, type TemplateRow } from '../../rows/templates';
import { deleteDraftRow, draftById, draftByKey, draftsOfWorkspace, insertDraft, setDraftCommit, setDraftDocument, setDraftTemplate, type DraftRow } from '../../rows/drafts';
import { grantRunAndView } from '../../rows/template-permissions';
import { templateUrl } from '../urls';

export type { DraftRow };

export interface CommitResult {
  requestedAt: number;
  completedAt?: number;
  templateKey?: string;
  version?: number;
  violations?: unknown[];
  error?: { code: string; message: string };
}

/** An empty draft: a valid document with no tasks yet. */
export const EMPTY_DOCUMENT = { name: 'Untitled template', tasks: [] };

const templateById = (ctx: Ctx, id: number): TemplateRow | undefined => templateRowById(ctx.db, id);

export function draftView(ctx: Ctx, d: DraftRow) {
  let template: Record<string, unknown> | undefined;
  if (d.template_id !== null) {
    const t = templateById(ctx, d.template_id);
    if (t) template = { key: t.key, name: findVersion(ctx, t).name, url: templateUrl(ctx, t.key), version: d.base_version ?? undefined, latestVersion: t.latest_version };
  }
  return {
    key: d.key,
    template,
    document: JSON.parse(d.document),
    createdBy: userRef(ctx.db, d.created_by),
    createdDateTime: iso(d.created_at),
    updatedDateTime: iso(d.updated_at),
    commit: d.commit_state ? commitView(d) : undefined,
  };
}

function commitView(d: DraftRow) {
  const r: CommitResult = d.commit_result ? JSON.parse(d.commit_result) : { requestedAt: d.updated_at };
  return {
    draftKey: d.key,
    state: d.commit_state ?? undefined,
    requestedDateTime: iso(r.requestedAt),
    completedDateTime: r.completedAt !== undefined ? iso(r.completedAt) : undefined,
    templateKey: r.templateKey,
    version: r.version,
    error: r.error,
    violations: r.violations,
  };
}

const isOwnerOrAll = (ctx: Ctx, d: DraftRow) => ctx.actor.kind === 'workspace' || ctx.actor.isAdmin || d.created_by === ctx.actor.member.id;

/** Lookup first (404 DRAFT_NOT_FOUND), then ownership: a member works on their own drafts (403). */
export function findDraft(ctx: Ctx, key: string): DraftRow {
  const d = draftByKey(ctx.db, ctx.workspace.id, key);
  if (!d) throw notFound('DRAFT_NOT_FOUND', `No draft with key ${key} exists in this workspace.`);
  if (!isOwnerOrAll(ctx, d)) {
    const owner = d.created_by !== null ? memberById(ctx.db, d.created_by) : undefined;
    throw forbidden(`This draft belongs to ${owner ? displayName(owner) : 'another member'}; a member works only on their own drafts. An Administrator can read or delete any draft.`);
  }
  return d;
}

export function createDraft(ctx: Ctx, input: { templateKey?: string; version?: number; document?: unknown }) {
  if (input.version !== undefined && input.templateKey === undefined) throw validationError('version is used only with templateKey.', 'version');
  if (input.templateKey !== undefined && input.document !== undefined) throw validationError('Send either templateKey (start from a template) or document, not both.', 'document');
  if (input.document !== undefined && depthOf(input.document, LIMITS.depth) > LIMITS.depth) throw validationError(`document nests deeper than ${LIMITS.depth} levels.`, 'document');
  let templateId: number | null = null;
  let base: number | null = null;
  let document: unknown = input.document ?? EMPTY_DOCUMENT;
  if (input.templateKey !== undefined) {
    const { t, v } = readableTemplate(ctx, input.templateKey, input.version);
    templateId = t.id;
    base = v.version;
    document = parseStoredDocument(v.document);
  }
  const now = ctx.now();
  const key = newGuid();
  insertDraft(ctx.db, { key, workspaceId: ctx.workspace.id, templateId, baseVersion: base, document: JSON.stringify(document), createdBy: ctx.actor.member.id, now });
  return draftView(ctx, findDraft(ctx, key));
}

export function listDrafts(ctx: Ctx) {
  const rows = draftsOfWorkspace(ctx.db, ctx.workspace.id).filter((d) => isOwnerOrAll(ctx, d));
  const items = rows.map((d) => {
    const v = draftView(ctx, d);
    const doc = v.document as { name?: unknown };
    return { key: v.key, name: typeof doc?.name === 'string' ? doc.name : undefined, template: v.template, createdBy: v.createdBy, createdDateTime: v.createdDateTime, updatedDateTime: v.updatedDateTime, commit: v.commit };
  });
  return { items, hasMore: false, total: items.length };
}

export const getDraft = (ctx: Ctx, input: { key: string }) => draftView(ctx, findDraft(ctx, input.key));

export function updateDraft(ctx: Ctx, input: { key: string; patch: unknown }) {
  if (input.patch === undefined) throw validationError('Send a JSON Merge Patch of the document as the body.', 'patch');
  if (depthOf(input.patch, LIMITS.depth) > LIMITS.depth) throw validationError(`The patch nests deeper than ${LIMITS.depth} levels.`, 'patch');
  const d = findDraft(ctx, input.key);
  if (d.commit_state === 'pending') throw conflict('The draft is being committed; wait for the commit to finish (GET /v3/drafts/{key}/commit).');
  const next = mergePatch(JSON.parse(d.document), input.patch);
  setDraftDocument(ctx.db, d.id, JSON.stringify(next === undefined ? null : next), ctx.now());
  return draftView(ctx, findDraft(ctx, input.key));
}

function draftOptions(ctx: Ctx, d: DraftRow): ValidateOptions {
  const t = d.template_id !== null ? templateById(ctx, d.template_id) : undefined;
  return t ? versionOptions(ctx, t) : { db: ctx.db, workspaceId: ctx.workspace.id, ids: 'forbidden' };
}

export function validateDraft(ctx: Ctx, input: { key: string }): ValidationResult {
  const d = findDraft(ctx, input.key);
  return validateDocument(JSON.parse(d.document), draftOptions(ctx, d)).result;
}

export function deleteDraft(ctx: Ctx, input: { key: string }): void {
  const d = findDraft(ctx, input.key);
  if (d.commit_state === 'pending') throw conflict('The draft is being committed; delete it once the commit has finished.');
  deleteDraftRow(ctx.db, d.id);
}

export function getCommitStatus(ctx: Ctx, input: { key: string }) {
  const d = findDraft(ctx, input.key);
  if (!d.commit_state) throw notFound('COMMIT_NOT_FOUND', 'This draft has not been committed. Commit it with POST /v3/drafts/{key}/commit.');
  return commitView(d);
}

/**
 * POST /v3/drafts/{key}/commit: permission is checked now (403); the commit itself
 * runs after the answer (202), in its own transaction, and is polled at
 * GET /v3/drafts/{key}/commit.
 */
export function commitDraft(ctx: Ctx, input: { key: string }, schedule: (work: () => void) => void) {
  const d = findDraft(ctx, input.key);
  if (d.commit_state === 'pending') throw conflict('This draft is already being committed; poll GET /v3/drafts/{key}/commit.');
  const t = d.template_id !== null ? templateById(ctx, d.template_id) : undefined;
  if (t) assertCanEditTemplate(ctx, t, findVersion(ctx, t).name, 'commit a draft of it');
  else assertCanCreateTemplate(ctx);
  const now = ctx.now();
  const result: CommitResult = { requestedAt: now };
  setDraftCommit(ctx.db, d.id, 'pending', JSON.stringify(result));
  schedule(() => runCommit(ctx, d.id));
  return commitView({ ...d, commit_state: 'pending', commit_result: JSON.stringify(result) });
}

/** The background half of a commit: validate, then create or publish, all in one transaction. */
export function runCommit(ctx: Ctx, draftId: number): void {
  if (!ctx.db.open) return;
  const finish = (d: DraftRow, patch: Partial<CommitResult>, state: 'succeeded' | 'failed') => {
    const prev: CommitResult = d.commit_result ? JSON.parse(d.commit_result) : { requestedAt: ctx.now() };
    setDraftCommit(ctx.db, d.id, state, JSON.stringify({ ...prev, ...patch, completedAt: ctx.now() }));
  };
  try {
    ctx.db.transaction(() => {
      const d = draftById(ctx.db, draftId);
      if (!d || d.commit_state !== 'pending') return;
      const doc = JSON.parse(d.document);
      const opts = draftOptions(ctx, d);
      const { result, doc: valid } = validateDocument(doc, opts);
      if (!valid) {
        const violations = result.violations.filter((v) => v.severity === 'error');
        return finish(d, { error: { code: 'TEMPLATE_INVALID', message: `The draft document has ${violations.length} error${violations.length === 1 ? '' : 's'}.` }, violations }, 'failed');
      }
      let templateId: number;
      let version: number;
      if (d.template_id !== null) {
        templateId = d.template_id;
        version = saveVersion(ctx.db, ctx.workspace.id, templateId, valid, ctx.actor.member.id, ctx.now());
      } else {
        const saved = saveNewTemplate(ctx.db, { workspaceId: ctx.workspace.id, folderId: null, doc: valid, createdBy: ctx.actor.member.id, now: ctx.now() });
        templateId = saved.templateId;
        version = saved.version;
        if (ctx.actor.kind === 'member' && !ctx.actor.isAdmin) {
          grantRunAndView(ctx.db, templateId, ctx.actor.member.id);
        }
      }
      const t = templateById(ctx, templateId)!;
      const stored = findVersion(ctx, t, version).document;
      // The draft now follows the template: a later commit publishes another version.
      setDraftTemplate(ctx.db, d.id, templateId, version, stored);
      finish({ ...d, template_id: templateId }, { templateKey: t.key, version }, 'succeeded');
    })();
  } catch (e) {
    if (!ctx.db.open) return;
    const d = draftById(ctx.db, draftId);
    if (d) finish(d, { error: { code: 'INTERNAL_ERROR', message: e instanceof ApiError ? e.message : 'The commit failed unexpectedly.' } }, 'failed');
  }
}
