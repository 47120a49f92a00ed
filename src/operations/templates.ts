// Template routes (spec v3 4.4), minus the upgrade routes (the upgrade area's).
// Bodies that are whole template documents come in as `document` (EMULATOR.md);
// the document itself is checked by the validator (422 TEMPLATE_INVALID), not by
// the input schema, so a permission refusal comes before it is read (4.4 rule 5).
import { z } from 'zod';
import { CREATE, READ, documented, mixed, REPLACE, REMOVE } from './define';
import { defineWith } from './define-with';
import { given, guid, intBetween, intId, queryBool } from './input-kinds';
import { page } from './shapes/common';
import { permissionRules, templateDetail, templateDocument, templateRow, templateVersionRow, validationResult } from './shapes/templates';
import { templateJsonSchema } from '../domain/template-format/document-schema';
import { exportTemplate, findTemplate, findVersion, getTemplate, listTemplates, listVersions } from '../domain/templates/read';
import { assertCanCreateTemplate, assertCanEditTemplate } from '../domain/access/templates';
import { isGuid } from '../ids';
import { copyTemplate, createTemplate, publishTemplateVersion, setTemplateArchived, validateTemplate } from '../domain/templates/write';
import { listTemplatePermissions, setTemplatePermissions, TEMPLATE_PERMISSIONS } from '../domain/templates/permissions';

export const versionArg = () => intBetween(1, 2147483647, 'must be an integer 1 or more', 'is too large').optional().describe('Template version, 1 or more; default: the latest');

/**
 * Accepts anything (the validator reports on it) but describes the document for OpenAPI and MCP
 * clients. Its JSON Schema is made when a document generator first asks (zod's own hook), not
 * at load: it was the costliest schema of the start-up.
 */
export const documentArg = (description: string) => {
  // Registered rather than `.meta()`d: `.meta()` makes a child schema, and zod's hook runs only
  // on a schema without a parent.
  const arg = z.unknown();
  z.globalRegistry.add(arg, { description });
  arg._zod.toJSONSchema = () => {
    const js = templateJsonSchema();
    delete js.$schema;
    delete js.$id;
    return js;
  };
  return arg;
};

const key = () => guid('a template key (GUID)').describe('template key (GUID)');
const templateOperation = defineWith({ tag: 'Templates', budget: 'standard' });
/** Refusals of a template looked up by key, then checked (spec v3 5.4, 5.10: lookup first). */
const LOOKUP = ['404 TEMPLATE_NOT_FOUND', '403 FORBIDDEN'] as const;
const folderArg = () => z.string({ error: 'must be a folder name' }).trim().min(1, { error: 'must not be empty' }).max(500).optional();

export const templateOperations = [
  templateOperation({
    id: 'listTemplates',
    tool: 'list_templates',
    method: 'GET',
    path: '/v3/templates',
    summary: 'List templates',
    fidelity: documented('4.4'),
    description:
      'Page envelope with every template in one response, `hasMore` always false, `total` = rows; no `pageSize`, `after`, `sort`. Rows are Template list rows. Not filtered by permission: a member key lists everything, even a template whose folder permission is Deny (reading it by key is then 403). Only the value `true` (any letter case) switches an option on.',
    input: () => ({
      includeAllVersions: queryBool().describe('`true` returns a row for every version of every template. Default false.'),
      includeArchived: queryBool().describe('`true` includes archived templates (marked `isArchived`). Default false.'),
    }),
    query: ['includeAllVersions', 'includeArchived'],
    output: () => page(templateRow(), 'Every template in one page'),
    refusals: [],
    annotations: READ,
    handler: (ctx, input) => listTemplates(ctx, input),
  }),
  templateOperation({
    id: 'validateTemplate',
    tool: 'validate_template',
    method: 'POST',
    path: '/v3/templates/validate',
    summary: 'Validate a template document',
    fidelity: mixed('2.5, 4.4', 'docs/template-document.md', 'the template document format and the violation codes (4.4 rule 4: not shown)'),
    description: 'Answers the validation result (200 even when invalid). With forTemplate, validates an edit of that template: ids must belong to it. Cheap.',
    input: () => ({
      document: documentArg('The template document to check'),
      forTemplate: guid('a template key (GUID)').optional().describe('Key of the template this document is a new version of (edit loop: export, change keeping every id, validate with forTemplate, publish)'),
    }),
    query: ['forTemplate'],
    bodyAs: 'document',
    output: validationResult,
    refusals: [...LOOKUP],
    budget: 'cheap',
    annotations: READ,
    handler: (ctx, input) => validateTemplate(ctx, input),
  }),
  templateOperation({
    id: 'getTemplate',
    tool: 'get_template',
    method: 'GET',
    path: '/v3/templates/:key',
    summary: 'Get a template with its tasks and fields',
    fidelity: documented('2.5, 4.4'),
    description: 'Template detail: the list fields plus `latestVersion`, `isLatest` and `tasks` in order. A member key whose Library folder permission is Deny is refused.',
    input: () => ({ key: key(), version: versionArg() }),
    query: ['version'],
    output: templateDetail,
    refusals: [...LOOKUP],
    annotations: READ,
    handler: (ctx, input) => getTemplate(ctx, input),
  }),
  templateOperation({
    id: 'createTemplate',
    tool: 'create_template',
    method: 'POST',
    path: '/v3/templates',
    summary: 'Create a template from a template document',
    fidelity: mixed('4.4', 'docs/template-document.md', 'the template document format and the request and response bodies (4.4 rule 4: not shown)'),
    description:
      'All or nothing: any error gives 422 TEMPLATE_INVALID with every violation. A document with ids (an export) is refused: use copy_template. `folder` (query) files it in a Library folder by name. Answers 201 with the template detail.',
    input: () => ({ document: documentArg('The template document (no ids)'), folder: folderArg().describe('Library folder to file the template in, by name') }),
    query: ['folder'],
    bodyAs: 'document',
    // 4.4 rule 5: refused for permission before the document is read (an unreadable body too).
    refuseFirst: (ctx) => assertCanCreateTemplate(ctx),
    output: templateDetail,
    refusals: ['403 FORBIDDEN', '422 TEMPLATE_INVALID'],
    annotations: CREATE,
    status: 201,
    handler: (ctx, input) => createTemplate(ctx, input),
  }),
  templateOperation({
    id: 'exportTemplate',
    tool: 'export_template',
    method: 'GET',
    path: '/v3/templates/:key/document',
    summary: 'Export a template version as a template document',
    fidelity: mixed('4.4', 'docs/template-document.md', 'the template document format (4.4 rule 4: not shown)'),
    description: 'The document carries every item id; keep them when editing so task and field keys survive. Rollback: export the older version and publish it as a new version.',
    input: () => ({ key: key(), version: versionArg() }),
    query: ['version'],
    output: templateDocument,
    refusals: [...LOOKUP],
    annotations: READ,
    handler: (ctx, input) => exportTemplate(ctx, input),
  }),
  templateOperation({
    id: 'createTemplateVersion',
    tool: 'create_template_version',
    method: 'POST',
    path: '/v3/templates/:key/versions',
    summary: 'Publish a new version of a template',
    fidelity: mixed('4.4', 'docs/template-document.md', 'the request and response bodies (4.4 rule 4: not shown)'),
    description:
      'The whole document of the new version. Items keep their keys where the document keeps their ids; items without id are new. Rollback: publish an exported older version. Answers 201 with the template detail of the new version.',
    input: () => ({ key: key(), document: documentArg('The template document of the new version') }),
    bodyAs: 'document',
    // 4.4 rule 5: refused for permission before the document is read; the template is looked up first (5.10).
    refuseFirst: (ctx, raw) => {
      if (!isGuid(raw.key)) return; // refused by the input check, field key
      const t = findTemplate(ctx, raw.key);
      assertCanEditTemplate(ctx, t, findVersion(ctx, t).name, 'publish a version of it');
    },
    output: templateDetail,
    refusals: [...LOOKUP, '422 TEMPLATE_INVALID'],
    annotations: CREATE,
    status: 201,
    handler: (ctx, input) => publishTemplateVersion(ctx, input),
  }),
  templateOperation({
    id: 'listTemplateVersions',
    tool: 'list_template_versions',
    method: 'GET',
    path: '/v3/templates/:key/versions',
    summary: 'List the versions of a template',
    fidelity: mixed('4.4', 'docs/template-document.md', 'the response body'),
    description: 'Template version rows, newest first, all in one page.',
    input: () => ({ key: key() }),
    output: () => page(templateVersionRow(), 'Every version in one page'),
    refusals: [...LOOKUP],
    annotations: READ,
    handler: (ctx, input) => listVersions(ctx, input),
  }),
  templateOperation({
    id: 'copyTemplate',
    tool: 'copy_template',
    method: 'POST',
    path: '/v3/templates/:key/copy',
    summary: 'Copy a template',
    fidelity: mixed('4.4', 'docs/template-document.md', 'the request and response bodies (4.4 rule 4: not shown)'),
    description: 'A new template with new keys from a version of this one (default latest), with its permission rules. Answers 201 with the template detail.',
    input: () => ({
      key: key(),
      name: z.string({ error: 'must be a string' }).trim().min(1, { error: 'must not be empty' }).max(500, { error: 'must be at most 500 characters' }).optional().describe('Name of the copy; default "<name> (copy)"'),
      version: versionArg().describe('Version to copy, 1 or more; default: the latest'),
      folder: folderArg().describe('Library folder of the copy, by name; default: the folder of the original'),
    }),
    output: templateDetail,
    refusals: [...LOOKUP, '422 TEMPLATE_INVALID'],
    annotations: CREATE,
    status: 201,
    handler: (ctx, input) => copyTemplate(ctx, input),
  }),
  templateOperation({
    id: 'archiveTemplate',
    tool: 'set_template_archived',
    method: 'POST',
    path: '/v3/templates/:key/archive',
    summary: 'Archive or unarchive a template',
    fidelity: mixed('4.4', 'docs/template-document.md', 'the response body (4.4 rule 4: not shown)'),
    description:
      'Both routes in one tool: POST /v3/templates/{key}/archive archives, DELETE /v3/templates/{key}/archive unarchives (spec v3 4.4). The tool takes `archived` (true archives, false unarchives; default true). Administrators or the workspace key only. Answers the template list row.',
    input: () => ({ key: key(), archived: z.boolean({ error: 'must be true or false' }).optional().describe('true (default): archive; false: unarchive') }),
    output: templateRow,
    refusals: [...LOOKUP],
    // The tool also unarchives (the DELETE's work), so it carries the DELETE's hint.
    annotations: REPLACE,
    handler: (ctx, input) => setTemplateArchived(ctx, input),
  }),
  templateOperation({
    id: 'unarchiveTemplate',
    noTool: 'One tool covers POST and DELETE of /v3/templates/{key}/archive (spec 4.4): set_template_archived with archived false.',
    method: 'DELETE',
    path: '/v3/templates/:key/archive',
    summary: 'Unarchive a template',
    fidelity: mixed('4.4', 'docs/template-document.md', 'the response body (4.4 rule 4: not shown)'),
    description: 'Administrators or the workspace key only. Answers the template list row. MCP: set_template_archived with archived false.',
    input: () => ({ key: key() }),
    output: templateRow,
    refusals: [...LOOKUP],
    annotations: REMOVE,
    handler: (ctx, input) => setTemplateArchived(ctx, { key: input.key, archived: false }),
  }),
  templateOperation({
    id: 'listTemplatePermissions',
    tool: 'list_template_permissions',
    method: 'GET',
    path: '/v3/templates/:key/permissions',
    summary: 'List the permission rules of a template',
    fidelity: mixed('4.4, 5.5', 'docs/template-document.md', 'the permission rule bodies (4.4 rule 4: not shown)'),
    description:
      'Who can see and run checklists made from the template (the rules grant no template editing): AllUsers first, then groups, then members, each by name.',
    input: () => ({ key: key() }),
    output: permissionRules,
    refusals: [...LOOKUP],
    annotations: READ,
    handler: (ctx, input) => listTemplatePermissions(ctx, input),
  }),
  templateOperation({
    id: 'setTemplatePermissions',
    tool: 'set_template_permissions',
    method: 'PUT',
    path: '/v3/templates/:key/permissions',
    summary: 'Replace the permission rules of a template',
    fidelity: mixed('4.4, 5.5', 'docs/template-document.md', 'the permission rule bodies (4.4 rule 4: not shown)'),
    description: 'Who can see and run checklists from the template. `name` is ignored on send. Needs Template.Creator and Edit on the folder.',
    input: () => ({
      key: key(),
      permissions: z
        .array(
          z.object({
            assigneeType: z.enum(['AllUsers', 'TeamMember', 'Group'], { error: 'must be AllUsers, TeamMember or Group' }).describe('AllUsers, TeamMember or Group'),
            assigneeId: intId().optional().describe('member or group id; absent for AllUsers, required otherwise'),
            name: z.unknown().optional().describe('ignored when sending'),
            permission: z
              .enum(TEMPLATE_PERMISSIONS, { error: `must be one of ${TEMPLATE_PERMISSIONS.join(', ')}` })
              .describe('RunAndView, ViewOnly, RunAndViewAssigned or ViewAssignedOnly; the two Assigned values restrict the rule to checklists where the assignee has at least one task'),
          })
            // src/domain/templates/permissions.ts: assigneeId absent for AllUsers, required otherwise (spec v3 2.5).
            .meta({
              anyOf: [
                { properties: { assigneeType: { const: 'AllUsers' } }, not: given('assigneeId') },
                { properties: { assigneeType: { enum: ['TeamMember', 'Group'] } }, required: ['assigneeId'] },
              ],
            }),
          { error: 'must be an array of permission rules' },
        )
        .max(500, { error: 'must hold at most 500 rules' })
        .describe('The new rules, replacing every rule; at most one per assignee'),
    }),
    output: permissionRules,
    refusals: [...LOOKUP],
    annotations: REPLACE,
    handler: (ctx, input) => setTemplatePermissions(ctx, input as Parameters<typeof setTemplatePermissions>[1]),
  }),
];
