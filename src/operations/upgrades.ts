// Template upgrade routes (spec v3 4.4 "List checklist upgrades", "Upgrade checklists") and
// the checklist links route (docs/upgrades.md "Linked checklists").
import { z } from 'zod';
import { READ, Reply, defineOperation, designed, documented, CREATE_REPLACING, NO_BODY } from './define';
import { validationError } from '../errors';
import { cursor, given, guid, pageSizeLenient, pageSizeStrict } from './input-kinds';
import { versionArg } from './templates';
import { listCandidates } from '../domain/upgrades/candidates';
import { upgradeChecklists } from '../domain/upgrades/queue';
import { checklistLinks } from '../domain/checklists/linked';
import { checklistActivity } from '../domain/checklists/activity';
import { checklistActivityPage, checklistLinks as checklistLinksShape, upgradeCandidatePage, upgradeResult as upgradeResultShape } from './shapes/upgrades';

const RETRY_AFTER_SECONDS = 60; // spec v3 8 "upgrade response Retry-After 60"

const NO_BODY_MESSAGE = 'Invalid request body: send checklistKeys (the checklists to upgrade) or all: true (every candidate), and optionally version.';

export const upgradeOperations = [
  defineOperation({
    id: 'listChecklistUpgrades',
    tool: 'list_checklist_upgrades',
    method: 'GET',
    path: '/v3/templates/:key/upgrades',
    tag: 'Templates',
    summary: 'List checklist upgrades',
    fidelity: documented('4.4'),
    description:
      'The running checklists of the template not on the target version (upgrade candidates), newest start date first. Compared for difference, so a checklist on a newer version than the target is one too (an older target shows what a rollback touches). Archived checklists and checklists mid-rebuild are left out; completed ones are included. Publishing another version while paging invalidates the cursor.',
    input: () => ({
      key: guid('a template key (GUID)').describe('Template key'),
      version: versionArg().describe('Target version, 1 or more; default latest; an older version shows what a rollback touches'),
      pageSize: pageSizeLenient(),
      after: cursor().describe('The previous nextCursor; valid only with the same version and pageSize'),
    }),
    query: ['version', 'pageSize', 'after'],
    output: upgradeCandidatePage,
    refusals: ['400 VALIDATION_ERROR', '403 FORBIDDEN', '404 TEMPLATE_NOT_FOUND'],
    budget: 'standard',
    annotations: READ,
    handler: (ctx, input) => listCandidates(ctx, input),
  }),
  defineOperation({
    id: 'upgradeChecklists',
    tool: 'upgrade_checklists',
    method: 'POST',
    path: '/v3/templates/:key/upgrades',
    tag: 'Templates',
    summary: 'Upgrade checklists',
    fidelity: documented('4.4'),
    description:
      'Queues checklists to be rebuilt on the target version by a background worker (tasks matched by task key, fields by field key; key, name and start date kept). Send exactly one of checklistKeys and all: true. Any refusal refuses the whole request; archived checklists and those already on the target are skipped. 202 with Location and Retry-After when at least one was queued; 200 with queued 0 otherwise.',
    input: () => ({
      key: guid('a template key (GUID)').describe('Template key'),
      checklistKeys: z
        .array(guid('a checklist key (GUID)'), { error: 'must be an array of checklist keys (GUIDs)' })
        .max(500, { error: 'must name at most 500 checklists' })
        .optional()
        .describe('The checklists to upgrade (at most 500; duplicates ignored)'),
      all: z.boolean({ error: 'must be true or false' }).optional().describe('true: every candidate for the target version'),
      version: versionArg().describe('Target version, 1 or more; default latest; older accepted (a rollback)'),
    }),
    output: upgradeResultShape,
    // Spec v3 4.4: "Send exactly one of checklistKeys and all: true" (src/domain/upgrades/queue.ts).
    bodyRule: {
      anyOf: [
        { required: ['checklistKeys'], not: { required: ['all'], properties: { all: { const: true } } } },
        { required: ['all'], properties: { all: { const: true } }, not: given('checklistKeys') },
      ],
    },
    refusals: ['400 VALIDATION_ERROR', '403 FORBIDDEN', '404 TEMPLATE_NOT_FOUND', '404 CHECKLIST_NOT_FOUND'],
    otherSuccess: [
      {
        status: 202,
        description: 'At least one checklist was queued (the upgrade result)',
        headers: { Location: 'The candidates list of the target version', 'Retry-After': 'Seconds to wait before reading it again (60)' },
      },
    ],
    budget: 'standard',
    annotations: CREATE_REPLACING,
    // 4.4's table: "no body" is 400 without field; a body naming neither ({} included) is the "neither" row, field checklistKeys (domain/upgrades/queue.ts).
    refuseFirst: (_ctx, raw) => {
      if ((raw as Record<symbol, unknown>)[NO_BODY]) throw validationError(NO_BODY_MESSAGE);
    },
    handler: (ctx, input) => {
      const hook = ctx.hooks.upgrades;
      const result = upgradeChecklists(ctx, input, { delayMs: hook?.delayMs ?? 0 });
      if (result.queued === 0) return result;
      // Woken after the transaction commits (setImmediate inside), never inside it.
      hook?.queued();
      const location = `${ctx.baseUrl}/v3/templates/${result.templateKey}/upgrades?version=${result.version}`;
      return new Reply(202, result, { Location: location, 'Retry-After': String(RETRY_AFTER_SECONDS) });
    },
  }),
  defineOperation({
    id: 'getChecklistLinks',
    noTool: 'the spec names no tool for it; the parent side is also the Linked Checklist field value (get_task)',
    method: 'GET',
    path: '/v3/checklists/:checklistKey/links',
    tag: 'Checklists',
    summary: 'Linked checklists of a checklist',
    fidelity: designed('docs/upgrades.md', 'the Linked Checklist parent and children of a checklist (no route in the spec)'),
    description:
      'Both sides of Linked Checklist links: the checklists whose Linked Checklist field holds this checklist (linkedFrom) and the checklists held by its own Linked Checklist fields (linkedTo). Lists only checklists the key may read.',
    input: () => ({ checklistKey: guid('a checklist key (GUID)').describe('Checklist key') }),
    output: checklistLinksShape,
    refusals: ['400 VALIDATION_ERROR', '403 FORBIDDEN', '404 CHECKLIST_NOT_FOUND'],
    budget: 'standard',
    annotations: READ,
    handler: (ctx, input) => checklistLinks(ctx, input),
  }),
  defineOperation({
    id: 'getChecklistActivity',
    noTool: 'the spec names no tool for it (get_task_activity reads one task)',
    method: 'GET',
    path: '/v3/checklists/:checklistKey/activity',
    tag: 'Checklists',
    summary: "A checklist's activity feed",
    fidelity: designed('docs/upgrades.md', 'what each rebuild kept and lost, as a checklist activity route (no route in the spec)'),
    description:
      "Who did what and when on the checklist and its tasks, newest first: upgrades, answers an upgrade could not keep, failed rebuilds, linked checklists started, and every task write. Entries about a task carry taskKey.",
    input: () => ({
      checklistKey: guid('a checklist key (GUID)').describe('Checklist key'),
      after: cursor().describe('The previous nextCursor'),
      pageSize: pageSizeStrict().describe('1 to 100, default 50'),
    }),
    query: ['after', 'pageSize'],
    output: checklistActivityPage,
    refusals: ['400 VALIDATION_ERROR', '403 FORBIDDEN', '404 CHECKLIST_NOT_FOUND'],
    budget: 'standard',
    annotations: READ,
    handler: (ctx, input) => checklistActivity(ctx, input),
  }),
];
