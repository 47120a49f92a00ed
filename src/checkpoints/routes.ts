// /_emulator/checkpoints (docs/checkpoints.md), declared as control routes (control/define.ts):
// make a checkpoint, read what changed since, forget one. The admin gate runs before them.
import { z } from 'zod';
import { validationError } from '../errors';
import { zodToApiError } from '../pipeline';
import { readJson } from '../transports/web/body';
import { json } from '../transports/web/respond';
import { defineControlRoute, type ControlRoute } from '../control/define';
import { lazy } from '../lazy';
import { GROUP_NAMES } from './diff';
import { createCheckpoint, diffSince, removeCheckpoint } from './service';

const ROOT = '/_emulator/checkpoints';

/** What POST takes: nothing, or an empty object (room for options later; unknown properties refused). */
const createBody = lazy(() => z.strictObject({}));

const entry = lazy(() => z.record(z.string(), z.unknown()));

export const changesShape = lazy(() =>
  z.strictObject(Object.fromEntries(GROUP_NAMES.map((g) => [g, z.array(entry()).describe(`What changed: ${g} (docs/checkpoints.md)`)])) as Record<string, z.ZodType>),
);

const callShape = lazy(() =>
  z.strictObject({
    at: z.string(),
    method: z.string(),
    path: z.string(),
    status: z.number().int(),
    requestId: z.string(),
    keyName: z.string().optional(),
    region: z.enum(['US', 'EU']),
    operations: z.array(z.strictObject({ operation: z.string(), tool: z.string().optional(), status: z.number().int() })).optional(),
  }),
);

const diffShape = lazy(() =>
  z.strictObject({
    checkpoint: z.strictObject({ id: z.string(), createdAt: z.string() }),
    now: z.string().describe('The emulator clock when the diff was read'),
    changes: changesShape(),
    calls: z.array(callShape()).describe('The requests made since, oldest first, from the request journal'),
    callsComplete: z.boolean().describe('false when the journal no longer holds every call since (its ring moved on, it was emptied, or the checkpoint was made by another process or before a restart)'),
  }),
);

async function readCreateBody(req: Request, limit: number): Promise<void> {
  const raw = await readJson(req, limit, true);
  if (raw === undefined) return;
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw validationError('Invalid request body: it must be a JSON object (or no body).');
  const parsed = createBody().safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    if (issue.code === 'unrecognized_keys') throw validationError(`Unknown property ${issue.keys.join(', ')}.`, issue.keys[0]);
    throw zodToApiError(parsed.error);
  }
}

const ONE = { refusals: { 404: ['CHECKPOINT_NOT_FOUND'] } };

export const checkpointRoutes: ControlRoute[] = [
  defineControlRoute({
    method: 'POST',
    path: ROOT,
    summary: 'Mark the current state; answers the checkpoint id',
    description: 'The diff of a checkpoint (GET /_emulator/checkpoints/{id}/diff) answers what changed since, grouped by resource, and the calls made since.',
    body: createBody,
    ownBody: true,
    status: 201,
    output: () => z.strictObject({ id: z.string(), createdAt: z.string() }),
    refusals: { 400: ['VALIDATION_ERROR'], 413: ['PAYLOAD_TOO_LARGE'] },
    handler: async (emu, { req }) => {
      await readCreateBody(req, emu.maxBodyBytes);
      const made = createCheckpoint(emu);
      return json(201, made, { Location: `${ROOT}/${made.id}/diff` });
    },
  }),
  defineControlRoute({
    ...ONE,
    method: 'GET',
    path: `${ROOT}/:id/diff`,
    summary: 'What changed since a checkpoint, grouped by resource, and the calls made since',
    output: diffShape,
    refusals: { 404: ['CHECKPOINT_NOT_FOUND'], 409: ['CHECKPOINT_STALE'] },
    handler: (emu, { params }) => diffSince(emu, decodeURIComponent(params.id)),
  }),
  defineControlRoute({
    ...ONE,
    method: 'DELETE',
    path: `${ROOT}/:id`,
    summary: 'Forget a checkpoint (the change log stops with the last one)',
    noContent: true,
    handler: (emu, { params }) => {
      removeCheckpoint(emu, decodeURIComponent(params.id));
    },
  }),
];
