// Template, draft and validation shapes (spec v3 2.5, 4.4; drafts: docs/template-document.md "Drafts").
import { z } from 'zod';
import { appUrl, count, guidOut, intIdOut, timestamp, userRef } from './common';
import { CONTENT_TYPES, templateDocumentSchema } from '../../domain/template-format/document-schema';
import { TEMPLATE_PERMISSIONS } from '../../domain/templates/permissions';
import { VALIDATION_CODES } from '../../domain/template-format/codes';
import { lazy } from '../../lazy';

const version = (description: string) => z.number().int().min(1).describe(description);

/** Template list row (2.5): one version, no tasks. */
export const templateRow = lazy(() => z
  .strictObject({
    key: guidOut('Template key; the same for every version'),
    name: z.string().describe('Name, as of this version'),
    description: z.string().optional().describe('Description, as of this version; absent when none'),
    version: version('Version of this row; the first version is 1'),
    isArchived: z.boolean().describe('False unless archived templates were requested'),
    url: appUrl(),
    createdDateTime: timestamp('When this version was published'),
    createdBy: userRef().optional().describe('Publisher; absent if that person left'),
  })
  .describe('Template (list row)'));

/** Data Set link of a field (2.5). */
export const dataSetLink = lazy(() => z
  .strictObject({
    key: guidOut('Data Set key'),
    name: z.string().describe('Data Set name'),
    viewKey: guidOut('Key of the linked view'),
    viewName: z.string().describe('Name of the linked view'),
    displayFieldKey: guidOut('Key of the Data Set field shown as the choice; absent on Table').optional(),
    displayFieldName: z.string().optional().describe('Name of the Data Set field shown as the choice; absent on Table'),
    prePopulateRows: z.boolean().describe('Table only meaningful; false on other types'),
    columns: z
      .array(
        z.strictObject({
          fieldKey: guidOut('Data Set field key'),
          fieldName: z.string().describe('Data Set field name'),
          column: z.string().describe('Column heading'),
        }),
      )
      .optional()
      .describe('Table only: the columns taken from the Data Set'),
  })
  .describe('Data Set link'));

export const templateField = lazy(() => z
  .strictObject({
    key: guidOut('Field key; survives a new version when the document keeps the field id'),
    name: z.string().describe('Label, or "Unlabelled <type> Content at Position <n>"'),
    type: z.enum(CONTENT_TYPES).describe('Content type'),
    isRequired: z.boolean().describe('Whether an answer is required to complete the task'),
    mode: z.enum(['date', 'time', 'date-and-time']).optional().describe('Date fields only'),
    regex: z.string().optional().describe('ShortText only: as the template keeps it, possibly wrapped in slashes; trim them before applying'),
    regexMessage: z.string().optional().describe('ShortText only: explains a regex mismatch'),
    selectionMode: z.enum(['single', 'multiple']).optional().describe('Members only: single refuses two people'),
    dataSet: dataSetLink().optional().describe('DropDown, MultiChoice, SubTasks and Table fields linked to a Data Set'),
  })
  .describe('Template field'));

export const templateTask = lazy(() => z
  .strictObject({
    key: guidOut('Task key; the same in every checklist run from the template'),
    name: z.string().describe('Task name'),
    isHeading: z.boolean().describe('A heading is a divider'),
    order: z.number().int().min(1).describe('Position, from 1'),
    fields: z.array(templateField()).describe('Fields in order'),
  })
  .describe('Template task'));

/** Template detail (2.5): the list row plus latestVersion, isLatest and tasks. */
export const templateDetail = lazy(() => templateRow()
  .extend({
    latestVersion: version('Latest version of the template'),
    isLatest: z.boolean().describe('Whether this is the latest version'),
    tasks: z.array(templateTask()).describe('Tasks in order'),
  })
  .describe('Template detail'));

/** Template version row (2.5). */
export const templateVersionRow = lazy(() => z
  .strictObject({
    key: guidOut('Template key'),
    version: version('Version'),
    isLatest: z.boolean().describe('Whether this is the latest version'),
    name: z.string().describe('Name, as of this version'),
    description: z.string().optional().describe('Description, as of this version; absent when none'),
    createdDateTime: timestamp('When this version was published'),
    createdBy: userRef().optional().describe('Publisher; absent if that person left'),
    url: appUrl(),
  })
  .describe('Template version row'));

/** Template permission rule (2.5). */
export const permissionRule = lazy(() => z
  .strictObject({
    assigneeType: z.enum(['AllUsers', 'TeamMember', 'Group']).describe('Who the rule is for'),
    assigneeId: intIdOut('Member or group id; absent for AllUsers').optional(),
    name: z.string().optional().describe('Name of the assignee (ignored when sending)'),
    permission: z.enum(TEMPLATE_PERMISSIONS).describe('The two Assigned values restrict the rule to checklists where the assignee has at least one task'),
  })
  .describe('Template permission rule'));

export const permissionRules = lazy(() => z
  .strictObject({ permissions: z.array(permissionRule()).describe('AllUsers first, then groups, then members, each by name') })
  .describe('Permission rules of a template'));

export const VIOLATION_CODES = VALIDATION_CODES.map((c) => c.code) as [string, ...string[]];

/** Violation (2.5); the same object appears in 422 TEMPLATE_INVALID. */
export const violation = lazy(() => z
  .strictObject({
    path: z.string().describe('JSONPath into the sent document'),
    code: z.enum(VIOLATION_CODES).describe('Branch on this (GET /v3/schema/validation-codes lists them)'),
    message: z.string().describe('What is wrong'),
    hint: z.string().optional().describe('How to fix it, where known'),
    severity: z.enum(['error', 'warning']).describe('error refuses the document, warning does not'),
  })
  .describe('Violation'));

/** Validation result (2.5). */
export const validationResult = lazy(() => z
  .strictObject({
    valid: z.boolean().describe('False when there is an error; warnings do not make it false'),
    errorCount: count('Violations of severity error'),
    warningCount: count('Violations of severity warning'),
    violations: z.array(violation()).describe('In document reading order'),
  })
  .describe('Validation result'));

/** The template document as stored, every item carrying its id (export). */
export const templateDocument = templateDocumentSchema;

/** The template a draft was started from or committed to. */
const draftTemplate = lazy(() => z
  .strictObject({
    key: guidOut('Template key'),
    name: z.string().describe('Name of its latest version'),
    url: appUrl(),
    version: version('The version the draft was started from (or last committed as)').optional(),
    latestVersion: version('Latest version of the template'),
  })
  .describe('Template of a draft: committing publishes a new version of it'));

/** Commit status of a draft (docs/template-document.md "Drafts"). */
export const commitStatus = lazy(() => z
  .strictObject({
    draftKey: guidOut('Draft key'),
    state: z.enum(['pending', 'succeeded', 'failed']).describe('pending until the commit has run'),
    requestedDateTime: timestamp('When the commit was asked for'),
    completedDateTime: timestamp('When the commit finished; absent while pending').optional(),
    templateKey: guidOut('succeeded: the template created or given a new version').optional(),
    version: version('succeeded: the version published').optional(),
    error: z
      .strictObject({ code: z.string().describe('TEMPLATE_INVALID, or INTERNAL_ERROR'), message: z.string().describe('What went wrong') })
      .optional()
      .describe('failed: why'),
    violations: z.array(violation()).optional().describe('failed with TEMPLATE_INVALID: the errors of the document'),
  })
  .describe('Commit status of a draft'));

const draftCommon = lazy(() => ({
  key: guidOut('Draft key'),
  template: draftTemplate().optional().describe('Absent for a draft of a new template'),
  createdBy: userRef().optional().describe('Who started the draft; absent if that person left'),
  createdDateTime: timestamp('When the draft was started'),
  updatedDateTime: timestamp('When the document last changed'),
  commit: commitStatus().optional().describe('The last commit; absent before the first'),
}));

/** A draft with its document (any JSON: a draft may hold an invalid document until committed). */
export const draft = lazy(() => z
  .strictObject({
    key: draftCommon().key,
    template: draftCommon().template,
    document: z.unknown().optional().describe('The draft document as it stands (any JSON; validate before committing); absent when patched to null'),
    createdBy: draftCommon().createdBy,
    createdDateTime: draftCommon().createdDateTime,
    updatedDateTime: draftCommon().updatedDateTime,
    commit: draftCommon().commit,
  })
  .describe('Template draft'));

/** A draft in the list: its document's name instead of the document. */
export const draftRow = lazy(() => z
  .strictObject({
    key: draftCommon().key,
    name: z.string().optional().describe("The document's name, when it has one"),
    template: draftCommon().template,
    createdBy: draftCommon().createdBy,
    createdDateTime: draftCommon().createdDateTime,
    updatedDateTime: draftCommon().updatedDateTime,
    commit: draftCommon().commit,
  })
  .describe('Template draft (list row)'));
