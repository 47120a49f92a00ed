// /_emulator/upgrades/* (docs/upgrades.md "Control routes"): the queue, pause and resume,
// run what is due now, and injected failures for tests. Emulator-only; never part of /v3.
// Declared as control routes (control/define.ts); a wrong method is 404 here, as always.
import { z } from 'zod';
import type { Emulator } from '../emulator';
import { readJson } from '../transports/web/body';
import { validationError } from '../errors';
import { zodToApiError } from '../pipeline';
import { iso } from '../clock';
import { isGuid } from '../ids';
import { defineControlRoute, type ControlRoute } from '../control/define';
import { recentUpgradeJobs } from '../rows/upgrade-queue';
import type { UpgradeWorker } from './worker';
import { lazy } from '../lazy';

const failureBody = lazy(() => z
  .object({
    checklistKey: z.string({ error: 'must be a checklist key (GUID)' }).refine(isGuid, { error: 'must be a checklist key (GUID)' }),
    message: z.string({ error: 'must be a string' }).min(1).max(1000).optional(),
  })
  .strict());

function state(emu: Emulator, worker: UpgradeWorker) {
  const rows = recentUpgradeJobs(emu.db, 500);
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

const failure = lazy(() => z.object({ checklistKey: z.string(), message: z.string() }));
const queue = lazy(() => z.object({
  paused: z.boolean(),
  delayMs: z.number(),
  queued: z.number().int(),
  injectedFailures: z.array(failure()),
  jobs: z.array(
    z.object({
      id: z.number().int(),
      checklistKey: z.string(),
      templateKey: z.string(),
      targetVersion: z.number().int(),
      state: z.enum(['queued', 'done', 'failed']),
      dueDateTime: z.string().optional(),
      requestId: z.string().optional(),
      error: z.string().optional(),
      createdDateTime: z.string().optional(),
      finishedDateTime: z.string().optional(),
    }),
  ),
}));

const ROOT = '/_emulator/upgrades';

/** The upgrade control routes of one emulator's worker. */
export function upgradeControlRoutes(worker: UpgradeWorker): ControlRoute[] {
  const route = <B>(r: ControlRoute<B>) => defineControlRoute<B>({ ...r, wrongMethod: 'not-found' });
  const queueRoute = (method: 'GET' | 'POST', path: string, summary: string, act: () => void) =>
    route({ method, path, summary, output: () => queue(), handler: (emu) => (act(), state(emu, worker)) });
  return [
    queueRoute('GET', ROOT, 'The upgrade queue: paused or not, the last 500 jobs', () => {}),
    queueRoute('POST', `${ROOT}/pause`, 'Pause the upgrade worker', () => worker.pause()),
    queueRoute('POST', `${ROOT}/resume`, 'Resume the upgrade worker', () => worker.resume()),
    route({
      method: 'POST',
      path: `${ROOT}/run`,
      summary: 'Run the upgrades due on the emulator clock now, even while paused; answers when done',
      output: () => queue().extend({ ran: z.number().int() }),
      handler: async (emu) => {
        const ran = await worker.runDue();
        return { ran, ...state(emu, worker) };
      },
    }),
    route({
      method: 'POST',
      path: `${ROOT}/failures`,
      summary: "Make a checklist's next upgrade fail",
      body: failureBody,
      // Read here, in this area's words; JSON whatever the Content-Type says, like every control route (curl -d).
      ownBody: true,
      status: 201,
      output: failure,
      refusals: { 400: ['VALIDATION_ERROR'], 413: ['PAYLOAD_TOO_LARGE'] },
      handler: async (emu, { req }) => {
        const raw = await readJson(req, emu.maxBodyBytes, true);
        if (raw === undefined || raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw validationError('Invalid request body: it must be a JSON object.');
        const parsed = failureBody().safeParse(raw);
        if (!parsed.success) throw zodToApiError(parsed.error, raw);
        const message = parsed.data.message ?? 'injected failure (POST /_emulator/upgrades/failures)';
        worker.injectFailure(parsed.data.checklistKey, message);
        return { checklistKey: parsed.data.checklistKey, message };
      },
    }),
    route({ method: 'GET', path: `${ROOT}/failures`, summary: 'The injected failures not yet used', output: () => z.object({ items: z.array(failure()) }), handler: () => ({ items: worker.injectedFailures }) }),
    route({
      method: 'DELETE',
      path: `${ROOT}/failures`,
      summary: 'Remove every injected failure',
      noContent: true,
      handler: () => {
        worker.clearFailures();
      },
    }),
  ];
}
