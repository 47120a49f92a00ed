// GET /v3/templates/{key}/upgrades (spec v3 4.4 "List checklist upgrades", 2.5 upgrade
// candidate). A candidate is a checklist of the template whose version differs from the
// target (so a newer one is a candidate of a rollback), not archived and not mid-rebuild
// (queued for the worker counts as mid-rebuild); completed checklists are included.
import type { Ctx } from '../../context';
import { iso } from '../../clock';
import { cursorScope, lenientPageSize, paginate } from '../paging';
import { checklistUrl } from '../urls';
import type { ChecklistRow } from '../checklist-lookup';
import { findTemplate, findVersion } from '../templates/read';
import type { TemplateRow } from '../../rows/templates';
import { assertCanUpgrade } from './access';
import { upgradeCandidates } from '../../rows/checklists';

/** Candidates for `target`, newest start date first (no start date last), then newest first. */
export function candidateRows(ctx: Pick<Ctx, 'db'>, t: Pick<TemplateRow, 'id'>, target: number): ChecklistRow[] {
  return upgradeCandidates(ctx.db, t.id, target);
}

export function candidateView(ctx: Ctx, c: ChecklistRow, target: number) {
  return {
    key: c.key,
    name: c.name,
    url: checklistUrl(ctx, c.key),
    status: c.status,
    startDateTime: iso(c.started_at),
    version: c.template_version,
    targetVersion: target,
  };
}

export function listCandidates(ctx: Ctx, input: { key: string; version?: number; pageSize?: unknown; after?: string }) {
  const t = findTemplate(ctx, input.key);
  const latest = findVersion(ctx, t);
  assertCanUpgrade(ctx, t, latest.name, 'list');
  const target = input.version === undefined ? latest : findVersion(ctx, t, input.version);
  const pageSize = lenientPageSize(input.pageSize);
  // Bound to version and pageSize (4.4), and to the latest version: publishing another
  // version while paging invalidates the cursor.
  const binding = [...cursorScope(ctx), 'upgrades', t.id, target.version, pageSize, t.latest_version];
  return paginate(candidateRows(ctx, t, target.version), pageSize, input.after, binding, (c) => candidateView(ctx, c, target.version));
}
