// /_emulator/faults (docs/faults.md): list, add, remove one, remove all. Declared as
// control routes (control/define.ts).
import { z } from 'zod';
import { ApiError, validationError } from '../errors';
import { readJson } from '../transports/web/body';
import { json } from '../transports/web/respond';
import { faultRuleInput } from './rules';
import { defineControlRoute, type ControlRoute } from '../control/define';
import { lazy } from '../lazy';

const ROOT = '/_emulator/faults';
/** A rule's id is the rest of the path, slashes and all: GET .../faults/a/b is FAULT_NOT_FOUND, not an unknown route. */
const ONE = { path: `${ROOT}/:id`, regex: /^\/_emulator\/faults\/(?<id>[^/][^]*?)\/*$/, refusals: { 404: ['FAULT_NOT_FOUND'] } };

const rule = lazy(() => faultRuleInput().extend({
  id: z.string().describe('The rule id, fault-<n>.'),
  hits: z.number().int().describe('Calls this rule has faulted so far.'),
  remaining: z.number().int().optional().describe('Left of times.'),
}));

const notFound = (id: string) => new ApiError(404, 'FAULT_NOT_FOUND', `No fault rule ${id} (it may have been used up, removed or cleared by a reset).`);

export const faultRoutes: ControlRoute[] = [
  defineControlRoute({
    method: 'GET',
    path: ROOT,
    summary: 'The fault rules, in the order they are tried',
    output: () => z.object({ items: z.array(rule()) }),
    handler: (emu) => ({ items: emu.faults.list() }),
  }),
  defineControlRoute({
    method: 'POST',
    path: ROOT,
    summary: 'Add a fault rule',
    description: 'Add a fault rule (docs/faults.md): calls it matches are delayed, answered with an error or dropped before they reach a handler.',
    body: faultRuleInput,
    // The rule is checked by the list itself (faults/list.ts), shared with the library.
    ownBody: true,
    status: 201,
    output: rule,
    refusals: { 400: ['VALIDATION_ERROR'], 413: ['PAYLOAD_TOO_LARGE'] },
    handler: async (emu, { req }) => {
      // Like every control route: JSON whatever the Content-Type says (curl -d), docs/faults.md as pasted.
      const body = await readJson(req, emu.maxBodyBytes, true);
      if (body === undefined) throw validationError('Send a fault rule as a JSON object, e.g. {"path":"/v3/**","status":503,"times":1}.');
      return json(201, emu.faults.add(body), { Location: `${ROOT}/${emu.faults.list().at(-1)!.id}` });
    },
  }),
  defineControlRoute({
    method: 'DELETE',
    path: ROOT,
    summary: 'Remove every fault rule',
    noContent: true,
    handler: (emu) => {
      emu.faults.clear();
    },
  }),
  defineControlRoute({
    ...ONE,
    method: 'GET',
    summary: 'One fault rule',
    output: rule,
    handler: (emu, { params }) => {
      const id = decodeURIComponent(params.id);
      const found = emu.faults.list().find((r) => r.id === id);
      if (!found) throw notFound(id);
      return found;
    },
  }),
  defineControlRoute({
    ...ONE,
    method: 'DELETE',
    summary: 'Remove one fault rule',
    noContent: true,
    handler: (emu, { params }) => {
      const id = decodeURIComponent(params.id);
      if (!emu.faults.remove(id)) throw notFound(id);
    },
  }),
];
