// POST /v3/checklists (spec v3 4.7, 5.5, 5.9, 5.10; body fixed in EMULATOR.md).
import type { Ctx } from '../../context';
import { conflict, forbidden, validationError } from '../../errors';
import { assertCanRunTemplate } from '../access/checklists';
import { versionDocument } from '../../rows/template-document';
import { validateAnswer } from '../tasks/field-values';
import { templateIdOf } from './list';
import { findChecklist } from '../checklist-lookup';
import { hasRight } from './rights';
import { resolveParameters, startChecklist } from './start';
import { checklistView } from './view';
import { startLinkedChecklists } from './linked';
import { firstAdministratorId } from '../../rows/people';
import { templateById } from '../../rows/templates';
import { setChecklistParameters } from '../../rows/checklists';

export interface CreateChecklistInput {
  templateKey: string;
  name: string;
  version?: number;
  dueDateTime?: number;
  parameters?: Record<string, unknown>;
}

/**
 * Who a checklist started by a workspace key is recorded against: "the workspace's creator" (5.9).
 * The store keeps no workspace owner, so it is the workspace's first active Administrator
 * (lowest id); the anonymous member only when there is none (docs/checklists.md).
 */
export function workspaceCreatorId(ctx: Ctx): number {
  return firstAdministratorId(ctx.db, ctx.workspace.id) ?? ctx.actor.member.id;
}

export function createChecklist(ctx: Ctx, input: CreateChecklistInput) {
  const templateId = templateIdOf(ctx, input.templateKey);
  const t = templateById(ctx.db, templateId)!;

  // 5.5: Checklist.Creator and run permission (the workspace key needs neither, 5.9).
  if (!hasRight(ctx, 'Checklist.Creator')) {
    throw forbidden('You may not create checklists: you do not have the Checklist.Creator right. An Administrator can give it to you.');
  }
  assertCanRunTemplate(ctx, templateId);
  // 5.10: settings apply to every key, Administrators included.
  if (t.is_archived) throw conflict('The template is archived: checklists cannot be started from an archived template. An Administrator can unarchive it.');

  const version = input.version ?? t.latest_version;
  const doc = versionDocument(ctx.db, templateId, version);
  if (!doc) throw validationError(`version ${version} does not exist: the template's versions run from 1 to ${t.latest_version}.`, 'version');

  const { values, unknown } = resolveParameters(doc, input.parameters ?? {});
  if (unknown.length) {
    throw validationError(
      `parameters.${unknown[0]} names no parameter, field key or field name of version ${version} of the template.`,
      `parameters.${unknown[0]}`,
    );
  }
  const fields = new Map(doc.tasks.flatMap((x) => x.fields ?? []).map((f) => [f.id!, f]));
  const checked = new Map<string, unknown>();
  const nameOf = new Map<string, string>();
  for (const [pname] of Object.entries(input.parameters ?? {})) {
    for (const [fk] of resolveParameters(doc, { [pname]: null }).values) nameOf.set(fk, pname);
  }
  for (const [fk, value] of values) {
    const f = fields.get(fk)!;
    if (value === null) continue; // null leaves the field empty
    // The same refusal as answering the field (400 naming parameters.<name>).
    checked.set(fk, validateAnswer(ctx, f, value, `parameters.${nameOf.get(fk)}`));
  }

  const now = ctx.now();
  const createdBy = ctx.actor.kind === 'workspace' ? workspaceCreatorId(ctx) : ctx.actor.member.id;
  const { id, key } = startChecklist(ctx.db, {
    workspaceId: ctx.workspace.id,
    templateId,
    version,
    doc,
    name: input.name.trim(),
    createdBy,
    now,
    dueAt: input.dueDateTime ?? null,
    values: checked,
  });
  // Kept for upgrades: a later version may bind a field to one of them (valueFrom, docs/upgrades.md).
  if (input.parameters && Object.keys(input.parameters).length) {
    setChecklistParameters(ctx.db, id, JSON.stringify(input.parameters));
  }
  ctx.hooks.event?.(ctx, 'new_checklist', { checklistId: id });
  // Linked Checklist fields start their child checklists now (docs/upgrades.md "Linked checklists").
  startLinkedChecklists(ctx, id);
  return checklistView(ctx, findChecklist(ctx, key));
}
