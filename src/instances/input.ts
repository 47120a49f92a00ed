// What POST /_emulator/instances and the library's instances.create accept
// (docs/instances.md): a built-in fixture's name, the clock, the rate budgets.
import { z } from 'zod';
import { validationError } from '../errors';
import { zodToApiError } from '../pipeline';
import { parseInstant } from '../control/routes';
import { fixtureNames } from '../fixtures/source';
import { lazy } from '../lazy';

const budget = lazy(() => z.number({ error: 'must be a whole number of 1 or more' }).int({ error: 'must be a whole number of 1 or more' }).min(1, { error: 'must be a whole number of 1 or more' }).max(Number.MAX_SAFE_INTEGER));

export const createBody = lazy(() => z
  .object({
    fixture: z.string({ error: 'must be the name of a built-in fixture' }).optional(),
    clock: z
      .object({
        now: z.string({ error: 'must be an ISO 8601 date-time string such as 2025-01-31T09:00:00Z' }).optional(),
        frozen: z.boolean({ error: 'must be true or false' }).optional(),
      })
      .strict()
      .optional(),
    budgets: z.object({ standard: budget().optional(), cheap: budget().optional() }).strict().optional(),
  })
  .strict());

export type CreateBody = z.infer<ReturnType<typeof createBody>>;

/** A checked request: the fixture a name only, the instant in epoch ms. */
export interface CreateInput {
  fixture?: string;
  clock?: { now?: number; frozen?: boolean };
  budgets?: { standard?: number; cheap?: number };
}

/** Checks a body (undefined: every default); refusals are 400 VALIDATION_ERROR with `field`. */
export function checkCreate(raw: unknown): CreateInput {
  if (raw === undefined || raw === null) return {};
  if (typeof raw !== 'object' || Array.isArray(raw)) throw validationError('Invalid request body: it must be a JSON object.');
  const parsed = createBody().safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    if (issue.code === 'unrecognized_keys') {
      const at = issue.path.length ? `${issue.path.join('.')}.` : '';
      throw validationError(`Unknown property ${at}${issue.keys[0]}.`, at + issue.keys[0]);
    }
    throw zodToApiError(parsed.error, raw);
  }
  const b = parsed.data;
  // A name, never a path: the request must not make the server read its files.
  if (b.fixture !== undefined && b.fixture !== 'none' && !fixtureNames().includes(b.fixture)) {
    throw validationError(`fixture must be the name of a built-in fixture: ${[...fixtureNames(), 'none'].join(', ')} (no paths).`, 'fixture');
  }
  return {
    fixture: b.fixture,
    clock: b.clock && { frozen: b.clock.frozen, now: b.clock.now === undefined ? undefined : parseInstant(b.clock.now, 'clock.now') },
    budgets: b.budgets,
  };
}
