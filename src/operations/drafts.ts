// Template draft routes (spec v3 4.4 rule 4, 4.7 `/v3/drafts`; docs/template-document.md "Drafts").
import { z } from 'zod';
import { CREATE, READ, REMOVE, Reply, mixed, REPLACE } from './define';
import { defineWith } from './define-with';
import { given, guid } from './input-kinds';
import { page } from './shapes/common';
import { commitStatus, draft, draftRow, validationResult } from './shapes/templates';
import { versionArg } from './templates';
import { commitDraft, createDraft, deleteDraft, getCommitStatus, getDraft, listDrafts, updateDraft, validateDraft } from '../domain/drafts/drafts';

const key = () => guid('a draft key (GUID)').describe('draft key (GUID)');
const draftOperation = defineWith({ tag: 'Template drafts', budget: 'standard' });
/** A draft is looked up first (404), then its owner checked: a member works on their own drafts (403). */
const LOOKUP = ['404 DRAFT_NOT_FOUND', '403 FORBIDDEN'] as const;

export const draftOperations = [
  draftOperation({
    id: 'createTemplateDraft',
    tool: 'create_template_draft',
    method: 'POST',
    path: '/v3/drafts',
    summary: 'Create a template draft',
    fidelity: mixed('4.4 rule 4', 'docs/template-document.md', 'draft bodies, the merge-patch result and the commit job (4.4 rule 4: not shown)'),
    description:
      'Empty (no body), from a template (`templateKey`, optional `version`: its exported document, ids included; committing publishes a new version of it), or from a `document`. Answers 201 with the draft.',
    input: () => ({
      templateKey: guid('a template key (GUID)').optional().describe('Start from this template: its exported document, ids included; committing publishes a new version of it'),
      version: versionArg().describe('With templateKey: the version to start from, 1 or more; default: the latest'),
      document: z.unknown().optional().describe('Start from this template document (any JSON; validate before committing); not with templateKey'),
    }),
    output: draft,
    // The domain's rules (src/domain/drafts): templateKey or document, not both; version only with templateKey.
    bodyRule: { not: given('templateKey', 'document'), dependentRequired: { version: ['templateKey'] } },
    refusals: ['404 TEMPLATE_NOT_FOUND', '403 FORBIDDEN'],
    annotations: CREATE,
    status: 201,
    handler: (ctx, input) => createDraft(ctx, input),
  }),
  draftOperation({
    id: 'listTemplateDrafts',
    noTool: 'The spec names no draft-listing tool (4.4, 8); an agent keeps the key create_template_draft answered.',
    method: 'GET',
    path: '/v3/drafts',
    summary: 'List template drafts',
    fidelity: mixed('4.4 rule 4', 'docs/template-document.md', 'draft bodies (not shown)'),
    description: 'A member key sees its own drafts; Administrators and the workspace key see all. One page.',
    input: () => ({}),
    output: () => page(draftRow(), 'Every draft the key may see, most recently changed first, in one page'),
    refusals: [],
    annotations: READ,
    handler: (ctx) => listDrafts(ctx),
  }),
  draftOperation({
    id: 'getTemplateDraft',
    tool: 'get_template_draft',
    method: 'GET',
    path: '/v3/drafts/:key',
    summary: 'Get a template draft with its document',
    fidelity: mixed('4.4 rule 4', 'docs/template-document.md', 'draft bodies (not shown)'),
    description: 'The draft with its document as it stands and its last commit. A member key reads only its own drafts.',
    input: () => ({ key: key() }),
    output: draft,
    refusals: [...LOOKUP],
    annotations: READ,
    handler: (ctx, input) => getDraft(ctx, input),
  }),
  draftOperation({
    id: 'updateTemplateDraft',
    tool: 'update_template_draft',
    method: 'PATCH',
    path: '/v3/drafts/:key',
    summary: 'Change a template draft with a JSON Merge Patch',
    fidelity: mixed('4.1 rule 8, 4.4 rule 4', 'docs/template-document.md', 'draft bodies (not shown)'),
    description: 'RFC 7386: objects merge, null removes a property, arrays replace whole (send the whole tasks list to change a task). Answers the draft.',
    input: () => ({ key: key(), patch: z.unknown().describe('JSON Merge Patch (RFC 7386) of the document (the REST body): objects merge, null removes a property, arrays replace whole') }),
    bodyAs: 'patch',
    output: draft,
    refusals: [...LOOKUP, '409 CONFLICT'],
    annotations: REPLACE,
    handler: (ctx, input) => updateDraft(ctx, input),
  }),
  draftOperation({
    id: 'validateTemplateDraft',
    tool: 'validate_template_draft',
    method: 'POST',
    path: '/v3/drafts/:key/validate',
    summary: 'Validate a template draft',
    fidelity: mixed('4.4 rule 4', 'docs/template-document.md', 'draft bodies (not shown)'),
    description: 'The validation result of the draft document (for its template when it was started from one). Cheap.',
    input: () => ({ key: key() }),
    output: validationResult,
    refusals: [...LOOKUP],
    budget: 'cheap',
    annotations: READ,
    handler: (ctx, input) => validateDraft(ctx, input),
  }),
  draftOperation({
    id: 'commitTemplateDraft',
    tool: 'commit_template_draft',
    method: 'POST',
    path: '/v3/drafts/:key/commit',
    summary: 'Commit a template draft',
    fidelity: mixed('4.4 rule 4', 'docs/template-document.md', 'the commit job and its answers (not shown)'),
    description:
      'Asynchronous: answers 202 with the commit status (state pending) and Location; poll get_commit_status (GET /v3/drafts/{key}/commit) until succeeded (templateKey, version) or failed (violations).',
    input: () => ({ key: key() }),
    output: commitStatus,
    refusals: [...LOOKUP, '409 CONFLICT'],
    otherSuccess: [
      {
        status: 202,
        description: 'Commit queued (state pending): poll the Location until succeeded or failed',
        headers: { Location: 'the commit status (GET /v3/drafts/{key}/commit)', 'Retry-After': 'seconds to wait before polling' },
      },
    ],
    annotations: CREATE,
    status: 202,
    handler: (ctx, input) => {
      const body = commitDraft(ctx, input, (work) => void setImmediate(work));
      return new Reply(202, body, { Location: `${ctx.baseUrl}/v3/drafts/${body.draftKey}/commit`, 'Retry-After': '1' });
    },
  }),
  draftOperation({
    id: 'getCommitStatus',
    tool: 'get_commit_status',
    method: 'GET',
    path: '/v3/drafts/:key/commit',
    summary: 'Poll the commit of a template draft',
    fidelity: mixed('4.4 rule 4', 'docs/template-document.md', 'the commit status body (not shown)'),
    description: 'state: pending, succeeded (templateKey, version) or failed (error, violations). 404 COMMIT_NOT_FOUND before the first commit. Cheap.',
    input: () => ({ key: key() }),
    output: commitStatus,
    refusals: [...LOOKUP, '404 COMMIT_NOT_FOUND'],
    budget: 'cheap',
    annotations: READ,
    handler: (ctx, input) => getCommitStatus(ctx, input),
  }),
  draftOperation({
    id: 'deleteTemplateDraft',
    tool: 'delete_template_draft',
    method: 'DELETE',
    path: '/v3/drafts/:key',
    summary: 'Delete a template draft',
    fidelity: mixed('4.4 rule 4', 'docs/template-document.md', 'the route and its answer (not shown)'),
    description: 'Refused (409) while a commit of the draft is running. Answers 204.',
    input: () => ({ key: key() }),
    refusals: [...LOOKUP, '409 CONFLICT'],
    annotations: REMOVE,
    status: 204,
    handler: (ctx, input) => deleteDraft(ctx, input),
  }),
];
