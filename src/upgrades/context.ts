// The context a rebuild runs in: no request, so the actor is the publisher of the target
// version (spec v3 4.4: answers the new version cannot hold are "attributed to the
// publisher"), or the workspace's anonymous member when the publisher is gone. Hooks are
// empty on purpose: an upgrade fires no webhook event (6.3).
import { makeContext, memberActor, type Ctx } from '../context';
import type { Emulator } from '../emulator';
import { memberById, workspaceById } from '../rows/people';
import { versionPublisher } from '../rows/templates';
import type { ChecklistRow } from '../domain/checklist-lookup';
import type { UpgradeJobRow } from '../rows/upgrade-jobs';

/** The job a rebuild runs for (schema.sql `upgrade_jobs`). */
export type JobRow = UpgradeJobRow;

export function workerCtx(emu: Emulator, c: ChecklistRow, job: JobRow): Ctx {
  const db = emu.db;
  const ws = workspaceById(db, c.workspace_id)!;
  const publisher = versionPublisher(db, c.template_id, job.target_version);
  const member = (id: number | null | undefined) => (id == null ? undefined : memberById(db, id));
  const m = member(publisher) ?? member(ws.anonymous_member_id) ?? member(job.requested_by)!;
  const actor = memberActor(m, new Set(JSON.parse(m.rights) as string[]));
  return makeContext(emu, { requestId: job.request_id ?? `upgrade-${job.id}`, workspace: ws, actor, timeZone: m.time_zone ?? 'UTC', transport: 'upgrade worker', hooks: {} });
}
