// POST /v3/templates/{key}/upgrades (spec v3 4.4 "Upgrade checklists", 2.5 upgrade result).
// Every refusal of the problem table refuses the whole request; archived checklists and
// those already on the target are skipped; the rest are queued for the worker in the
// request's transaction (src/upgrades/worker.ts rebuilds them later, on the emulator clock).
import { insertUpgradeJob, queuedJobOfChecklist, requeueJob } from '../../rows/upgrade-jobs';
import type { Ctx } from '../../context';
import { notFound, validationError } from '../../errors';
import type { ChecklistRow } from '../checklist-lookup';
import { findTemplate, findVersion } from '../templates/read';
import { candidateRows } from './candidates';
import { assertCanUpgrade } from './access';
import { checklistByKey, markRebuilding } from '../../rows/checklists';

export interface UpgradeInput {
  key: string;
  checklistKeys?: string[];
  all?: boolean;
  version?: number;
}

export interface UpgradeResult {
  templateKey: string;
  templateName: string;
  version: number;
  queued: number;
  checklistKeys: string[];
  skipped: { checklistKey: string; reason: string }[];
}

/** Emulator-clock delay before a queued rebuild is due (EmulatorOptions.upgrades.delayMs). */
export interface QueueOptions {
  delayMs: number;
}

export function upgradeChecklists(ctx: Ctx, input: UpgradeInput, opts: QueueOptions): UpgradeResult {
  // 400s before anything is looked up (EMULATOR.md). A request with no body at all is refused
  // before (src/operations/upgrades.ts, spec v3 4.4 "no body"); `{}` names neither: field checklistKeys.
  if (input.checklistKeys !== undefined && input.all === true) {
    throw validationError('Send exactly one of checklistKeys and all: true, not both.', 'all');
  }
  if (input.checklistKeys === undefined && input.all !== true) {
    throw validationError('checklistKeys is required unless all is true: name the checklists to upgrade, or send all: true.', 'checklistKeys');
  }

  const t = findTemplate(ctx, input.key);
  const latest = findVersion(ctx, t);
  assertCanUpgrade(ctx, t, latest.name, 'upgrade');
  const target = input.version === undefined ? latest : findVersion(ctx, t, input.version);

  const skipped: UpgradeResult['skipped'] = [];
  let chosen: ChecklistRow[];
  if (input.all === true) {
    chosen = candidateRows(ctx, t, target.version);
  } else {
    const seen = new Set<string>();
    const rows: ChecklistRow[] = [];
    for (const k of input.checklistKeys!) {
      if (seen.has(k.toLowerCase())) continue; // duplicates ignored
      seen.add(k.toLowerCase());
      const c = checklistByKey(ctx.db, ctx.workspace.id, k);
      if (!c) throw notFound('CHECKLIST_NOT_FOUND', `No checklist with key ${k} exists in this workspace; nothing was queued.`);
      rows.push(c);
    }
    const foreign = rows.find((c) => c.template_id !== t.id);
    if (foreign) {
      throw validationError(`checklistKeys names checklist ${foreign.key}, which was not started from template ${t.key}; nothing was queued.`, 'checklistKeys');
    }
    chosen = [];
    for (const c of rows) {
      if (c.is_archived === 1) skipped.push({ checklistKey: c.key, reason: 'archived: an archived checklist is not upgraded' });
      else if (c.template_version === target.version && c.rebuilding === 0) skipped.push({ checklistKey: c.key, reason: `already on version ${target.version}` });
      else chosen.push(c);
    }
  }

  const now = ctx.now();
  const requestedBy = ctx.actor.member.id;
  for (const c of chosen) {
    // A checklist already queued gets the newest target: the last request wins.
    const open = queuedJobOfChecklist(ctx.db, c.id);
    const job = { target_version: target.version, requested_by: requestedBy, request_id: ctx.requestId, run_at: now + opts.delayMs };
    if (open !== undefined) requeueJob(ctx.db, open, job);
    else insertUpgradeJob(ctx.db, { ...job, workspace_id: ctx.workspace.id, template_id: t.id, checklist_id: c.id, created_at: now });
    markRebuilding(ctx.db, c.id);
  }
  return {
    templateKey: t.key,
    templateName: target.name,
    version: target.version,
    queued: chosen.length,
    checklistKeys: chosen.map((c) => c.key),
    skipped,
  };
}
