// Template draft routes (spec v3 4.4 rule 4, 4.7 `/v3/drafts`; docs/template-document.md "Drafts").
import { z } from 'zod';
import { CREATE, READ, REMOVE, Reply, SET, defineOperation } from './define';
import { guid } from './schemas';
import { versionArg } from './templates';
import { commitDraft, createDraft, deleteDraft, getCommitStatus, getDraft, listDrafts, updateDraft, validateDraft } from '../domain/drafts/drafts';

const key = () => guid('a draft key (GUID)');

export const draftOperations = [
  defineOperation({
    id: 'createTemplateDraft',
    tool: 'create_template_draft',
    method: 'POST',
    path: '/v3/drafts',
    summary: 'Create a template draft',
    description:
      'Empty (no body), from a template (`templateKey`, optional `version`: its exported document, ids included; committing publishes a new version of it), or from a `document`. Answers 201 with the draft.',
    input: {
      templateKey: guid('a template key (GUID)').optional().describe('Start from this template'),
      version: versionArg(),
      document: z.unknown().optional().describe('Start from this template document (any JSON; validate before committing)'),
    },
    budget: 'standard',
    annotations: CREATE,
    status: 201,
    handler: (ctx, input) => createDraft(ctx, input),
  }),
  defineOperation({
    id: 'listTemplateDrafts',
    method: 'GET',
    path: '/v3/drafts',
    summary: 'List template drafts',
    description: 'A member key sees its own drafts; Administrators and the workspace key see all. One page.',
    input: {},
    budget: 'standard',
    annotations: READ,
    handler: (ctx) => listDrafts(ctx),
  }),
  defineOperation({
    id: 'getTemplateDraft',
    tool: 'get_template_draft',
    method: 'GET',
    path: '/v3/drafts/:key',
    summary: 'Get a template draft with its document',
    input: { key: key() },
    budget: 'standard',
    annotations: READ,
    handler: (ctx, input) => getDraft(ctx, input),
  }),
  defineOperation({
    id: 'updateTemplateDraft',
    tool: 'update_template_draft',
    method: 'PATCH',
    path: '/v3/drafts/:key',
    summary: 'Change a template draft with a JSON Merge Patch',
    description: 'RFC 7386: objects merge, null removes a property, arrays replace whole (send the whole tasks list to change a task). Answers the draft.',
    input: { key: key(), patch: z.unknown().describe('JSON Merge Patch of the document (the REST body)') },
    bodyAs: 'patch',
    budget: 'standard',
    annotations: SET,
    handler: (ctx, input) => updateDraft(ctx, input),
  }),
  defineOperation({
    id: 'validateTemplateDraft',
    tool: 'validate_template_draft',
    method: 'POST',
    path: '/v3/drafts/:key/validate',
    summary: 'Validate a template draft',
    description: 'The validation result of the draft document (for its template when it was started from one). Cheap.',
    input: { key: key() },
    budget: 'cheap',
    annotations: READ,
    handler: (ctx, input) => validateDraft(ctx, input),
  }),
  defineOperation({
    id: 'commitTemplateDraft',
    tool: 'commit_template_draft',
    method: 'POST',
    path: '/v3/drafts/:key/commit',
    summary: 'Commit a template draft',
    description:
      'Asynchronous: answers 202 with the commit status (state pending) and Location; poll get_commit_status (GET /v3/drafts/{key}/commit) until succeeded (templateKey, version) or failed (violations).',
    input: { key: key() },
    budget: 'standard',
    annotations: CREATE,
    status: 202,
    handler: (ctx, input) => {
      const body = commitDraft(ctx, input, (work) => void setImmediate(work));
      return new Reply(202, body, { Location: `${ctx.baseUrl}/v3/drafts/${body.draftKey}/commit`, 'Retry-After': '1' });
    },
  }),
  defineOperation({
    id: 'getCommitStatus',
    tool: 'get_commit_status',
    method: 'GET',
    path: '/v3/drafts/:key/commit',
    summary: 'Poll the commit of a template draft',
    description: 'state: pending, succeeded (templateKey, version) or failed (error, violations). 404 COMMIT_NOT_FOUND before the first commit. Cheap.',
    input: { key: key() },
    budget: 'cheap',
    annotations: READ,
    handler: (ctx, input) => getCommitStatus(ctx, input),
  }),
  defineOperation({
    id: 'deleteTemplateDraft',
    tool: 'delete_template_draft',
    method: 'DELETE',
    path: '/v3/drafts/:key',
    summary: 'Delete a template draft',
    input: { key: key() },
    budget: 'standard',
    annotations: REMOVE,
    status: 204,
    handler: (ctx, input) => deleteDraft(ctx, input),
  }),
];
