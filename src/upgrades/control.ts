// /_emulator/upgrades/* (docs/upgrades.md "Control routes"): the queue, pause and resume,
// run what is due now, and injected failures for tests. Emulator-only; never part of /v3.
import { z } from 'zod';
import type { Emulator } from '../emulator';
import type { ExtraRoute } from '../transports/http/app';
import { json } from '../transports/http/respond';
import { readJson } from '../transports/http/body';
import { ApiError, validationError } from '../errors';
import { zodToApiError } from '../pipeline';
import { iso } from '../clock';
import { isGuid } from '../ids';
import type { UpgradeWorker } from './worker';
import type { JobRow } from './context';

const failureBody = z
  .object({
    checklistKey: z.string({ error: 'must be a checklist key (GUID)' }).refine(isGuid, { error: 'must be a checklist key (GUID)' }),
    message: z.string({ error: 'must be a string' }).min(1).max(1000).optional(),
  })
  .strict();

function state(emu: Emulator, worker: UpgradeWorker) {
  const rows = emu.db
    .prepare<[], JobRow & { checklist_key: string; template_key: string }>(
      `SELECT j.*, c.key AS checklist_key, t.key AS template_key FROM upgrade_jobs j
         JOIN checklists c ON c.id = j.checklist_id JOIN templates t ON t.id = j.template_id ORDER BY j.id DESC LIMIT 500`,
    )
    .all();
  return {
    paused: worker.isPaused,
    delayMs: worker.options.delayMs,
    queued: rows.filter((r) => r.state === 'queued').length,
    injectedFailures: worker.injectedFailures,
    jobs: rows.map((r) => ({
      id: r.id,
      checklistKey: r.checklist_key,
      templateKey: r.template_key,
      targetVersion: r.target_version,
      state: r.state,
      dueDateTime: iso(r.run_at),
      requestId: r.request_id ?? undefined,
      error: r.error ?? undefined,
      createdDateTime: iso(r.created_at),
      finishedDateTime: iso(r.finished_at),
    })),
  };
}

export function upgradeControlRoutes(emu: Emulator, worker: UpgradeWorker): ExtraRoute {
  return async (req, info) => {
    const url = new URL(req.url);
    const path = url.pathname.replace(/\/+$/, '');
    if (!path.startsWith('/_emulator/upgrades')) return undefined;
    const h = { 'X-Request-Id': info.requestId };
    const m = req.method;
    if (path === '/_emulator/upgrades' && m === 'GET') return json(200, state(emu, worker), h);
    if (path === '/_emulator/upgrades/pause' && m === 'POST') {
      worker.pause();
      return json(200, state(emu, worker), h);
    }
    if (path === '/_emulator/upgrades/resume' && m === 'POST') {
      worker.resume();
      return json(200, state(emu, worker), h);
    }
    if (path === '/_emulator/upgrades/run' && m === 'POST') {
      // Runs what is due on the emulator clock now, even while paused; answers when done.
      const ran = await worker.runDue();
      return json(200, { ran, ...state(emu, worker) }, h);
    }
    if (path === '/_emulator/upgrades/failures') {
      if (m === 'POST') {
        const raw = await readJson(req, emu.maxBodyBytes);
        if (raw === undefined || raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw validationError('Invalid request body: it must be a JSON object.');
        const parsed = failureBody.safeParse(raw);
        if (!parsed.success) throw zodToApiError(parsed.error, raw);
        const message = parsed.data.message ?? 'injected failure (POST /_emulator/upgrades/failures)';
        worker.injectFailure(parsed.data.checklistKey, message);
        return json(201, { checklistKey: parsed.data.checklistKey, message }, h);
      }
      if (m === 'GET') return json(200, { items: worker.injectedFailures }, h);
      if (m === 'DELETE') {
        worker.clearFailures();
        return json(204, undefined, h);
      }
    }
    throw new ApiError(404, 'NOT_FOUND', `No route matches ${m} ${url.pathname}.`);
  };
}
