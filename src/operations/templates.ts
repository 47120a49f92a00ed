// Template routes (spec v3 4.4), minus the upgrade routes (the upgrade area's).
// Bodies that are whole template documents come in as `document` (EMULATOR.md);
// the document itself is checked by the validator (422 TEMPLATE_INVALID), not by
// the input schema, so a permission refusal comes before it is read (4.4 rule 5).
import { z } from 'zod';
import { CREATE, READ, SET, defineOperation } from './define';
import { guid, queryBool } from './schemas';
import { templateJsonSchema } from '../domain/templates/schema';
import { exportTemplate, getTemplate, listTemplates, listVersions } from '../domain/templates/read';
import { copyTemplate, createTemplate, publishTemplateVersion, setTemplateArchived, validateTemplate } from '../domain/templates/write';
import { listTemplatePermissions, setTemplatePermissions, TEMPLATE_PERMISSIONS } from '../domain/templates/permissions';

export const versionArg = () =>
  z
    .number({ error: 'must be an integer 1 or more' })
    .int({ error: 'must be an integer 1 or more' })
    .min(1, { error: 'must be an integer 1 or more' })
    .max(2147483647, { error: 'is too large' })
    .optional()
    .describe('Template version, 1 or more; default: the latest');

/** Accepts anything (the validator reports on it) but describes the document for OpenAPI and MCP clients. */
export const documentArg = (description: string) => {
  const js = templateJsonSchema();
  delete js.$schema;
  delete js.$id;
  return z.unknown().meta({ ...js, description });
};

const key = () => guid('a template key (GUID)');
const folderArg = () => z.string({ error: 'must be a folder name' }).trim().min(1, { error: 'must not be empty' }).max(500).optional();

export const templateOperations = [
  defineOperation({
    id: 'listTemplates',
    tool: 'list_templates',
    method: 'GET',
    path: '/v3/templates',
    summary: 'List templates',
    description: 'Every template in one page (hasMore false), not filtered by permission. Only `true` switches an option on.',
    input: {
      includeAllVersions: queryBool().describe('`true`: a row for every version of every template'),
      includeArchived: queryBool().describe('`true`: include archived templates (marked isArchived)'),
    },
    query: ['includeAllVersions', 'includeArchived'],
    budget: 'standard',
    annotations: READ,
    handler: (ctx, input) => listTemplates(ctx, input),
  }),
  defineOperation({
    id: 'validateTemplate',
    tool: 'validate_template',
    method: 'POST',
    path: '/v3/templates/validate',
    summary: 'Validate a template document',
    description: 'Answers the validation result (200 even when invalid). With forTemplate, validates an edit of that template: ids must belong to it. Cheap.',
    input: {
      document: documentArg('The template document to check'),
      forTemplate: guid('a template key (GUID)').optional().describe('Key of the template this document is a new version of'),
    },
    query: ['forTemplate'],
    bodyAs: 'document',
    budget: 'cheap',
    annotations: READ,
    handler: (ctx, input) => validateTemplate(ctx, input),
  }),
  defineOperation({
    id: 'getTemplate',
    tool: 'get_template',
    method: 'GET',
    path: '/v3/templates/:key',
    summary: 'Get a template with its tasks and fields',
    input: { key: key(), version: versionArg() },
    query: ['version'],
    budget: 'standard',
    annotations: READ,
    handler: (ctx, input) => getTemplate(ctx, input),
  }),
  defineOperation({
    id: 'createTemplate',
    tool: 'create_template',
    method: 'POST',
    path: '/v3/templates',
    summary: 'Create a template from a template document',
    description:
      'All or nothing: any error gives 422 TEMPLATE_INVALID with every violation. A document with ids (an export) is refused: use copy_template. `folder` (query) files it in a Library folder by name. Answers 201 with the template detail.',
    input: { document: documentArg('The template document (no ids)'), folder: folderArg().describe('Library folder to file the template in, by name') },
    query: ['folder'],
    bodyAs: 'document',
    budget: 'standard',
    annotations: CREATE,
    status: 201,
    handler: (ctx, input) => createTemplate(ctx, input),
  }),
  defineOperation({
    id: 'exportTemplate',
    tool: 'export_template',
    method: 'GET',
    path: '/v3/templates/:key/document',
    summary: 'Export a template version as a template document',
    description: 'The document carries every item id; keep them when editing so task and field keys survive.',
    input: { key: key(), version: versionArg() },
    query: ['version'],
    budget: 'standard',
    annotations: READ,
    handler: (ctx, input) => exportTemplate(ctx, input),
  }),
  defineOperation({
    id: 'createTemplateVersion',
    tool: 'create_template_version',
    method: 'POST',
    path: '/v3/templates/:key/versions',
    summary: 'Publish a new version of a template',
    description:
      'The whole document of the new version. Items keep their keys where the document keeps their ids; items without id are new. Rollback: publish an exported older version. Answers 201 with the template detail of the new version.',
    input: { key: key(), document: documentArg('The template document of the new version') },
    bodyAs: 'document',
    budget: 'standard',
    annotations: CREATE,
    status: 201,
    handler: (ctx, input) => publishTemplateVersion(ctx, input),
  }),
  defineOperation({
    id: 'listTemplateVersions',
    tool: 'list_template_versions',
    method: 'GET',
    path: '/v3/templates/:key/versions',
    summary: 'List the versions of a template',
    description: 'Newest first, all in one page.',
    input: { key: key() },
    budget: 'standard',
    annotations: READ,
    handler: (ctx, input) => listVersions(ctx, input),
  }),
  defineOperation({
    id: 'copyTemplate',
    tool: 'copy_template',
    method: 'POST',
    path: '/v3/templates/:key/copy',
    summary: 'Copy a template',
    description: 'A new template with new keys from a version of this one (default latest), with its permission rules. Answers 201 with the template detail.',
    input: {
      key: key(),
      name: z.string({ error: 'must be a string' }).trim().min(1, { error: 'must not be empty' }).max(500, { error: 'must be at most 500 characters' }).optional().describe('Name of the copy; default "<name> (copy)"'),
      version: versionArg(),
      folder: folderArg().describe('Library folder of the copy, by name; default: the folder of the original'),
    },
    budget: 'standard',
    annotations: CREATE,
    status: 201,
    handler: (ctx, input) => copyTemplate(ctx, input),
  }),
  defineOperation({
    id: 'archiveTemplate',
    tool: 'set_template_archived',
    method: 'POST',
    path: '/v3/templates/:key/archive',
    summary: 'Archive or unarchive a template',
    description:
      'REST: POST archives, DELETE unarchives. The tool takes `archived` (true archives, false unarchives; default true). Administrators or the workspace key only. Answers the template list row.',
    input: { key: key(), archived: z.boolean({ error: 'must be true or false' }).optional().describe('true (default): archive; false: unarchive') },
    budget: 'standard',
    annotations: SET,
    handler: (ctx, input) => setTemplateArchived(ctx, input),
  }),
  defineOperation({
    id: 'unarchiveTemplate',
    method: 'DELETE',
    path: '/v3/templates/:key/archive',
    summary: 'Unarchive a template',
    description: 'Administrators or the workspace key only. MCP: set_template_archived with archived false.',
    input: { key: key() },
    budget: 'standard',
    annotations: SET,
    handler: (ctx, input) => setTemplateArchived(ctx, { key: input.key, archived: false }),
  }),
  defineOperation({
    id: 'listTemplatePermissions',
    tool: 'list_template_permissions',
    method: 'GET',
    path: '/v3/templates/:key/permissions',
    summary: 'List the permission rules of a template',
    input: { key: key() },
    budget: 'standard',
    annotations: READ,
    handler: (ctx, input) => listTemplatePermissions(ctx, input),
  }),
  defineOperation({
    id: 'setTemplatePermissions',
    tool: 'set_template_permissions',
    method: 'PUT',
    path: '/v3/templates/:key/permissions',
    summary: 'Replace the permission rules of a template',
    description: 'Who can see and run checklists from the template. `name` is ignored on send. Needs Template.Creator and Edit on the folder.',
    input: {
      key: key(),
      permissions: z
        .array(
          z.object({
            assigneeType: z.enum(['AllUsers', 'TeamMember', 'Group'], { error: 'must be AllUsers, TeamMember or Group' }),
            assigneeId: z.number({ error: 'must be an integer' }).int({ error: 'must be an integer' }).min(1, { error: 'must be 1 or more' }).max(2147483647).optional(),
            name: z.unknown().optional().describe('ignored'),
            permission: z.enum(TEMPLATE_PERMISSIONS, { error: `must be one of ${TEMPLATE_PERMISSIONS.join(', ')}` }),
          }),
          { error: 'must be an array of permission rules' },
        )
        .max(500, { error: 'must hold at most 500 rules' }),
    },
    budget: 'standard',
    annotations: SET,
    handler: (ctx, input) => setTemplatePermissions(ctx, input as Parameters<typeof setTemplatePermissions>[1]),
  }),
];
