// The ONE zod schema of the template document (docs/template-document.md). It
// gives the validator's shape checks, GET /v3/schema/template (JSON Schema) and
// the MCP tool get_template_schema. Objects are strict: an unknown property is a
// violation (`unknown_property`), so a typo never silently drops a setting.
// No `.default()` anywhere: a stored version is exactly what the author sent
// plus the ids the service gave each item (spec v3 2.5, 4.4 rules 2-3).
import { z } from 'zod';
import { isGuid } from '../../ids';
import { lazy } from '../../lazy';

export const LIMITS = {
  tasks: 1000,
  fieldsPerTask: 200,
  options: 1000,
  columns: 100,
  conditions: 1000,
  whenClauses: 50,
  notifications: 500,
  tags: 50,
  parameters: 200,
  assignees: 100,
  name: 500,
  text: 10_000,
  content: 100_000,
  depth: 32,
  bytes: 4_000_000,
} as const;

const id = () =>
  z
    .string()
    .refine(isGuid, { error: 'must be a GUID' })
    .optional()
    .describe('Set by the service; present in an exported document. Keep it when editing so task and field keys survive (omit it when creating).');

export const REF_PATTERN = /^[A-Za-z_][A-Za-z0-9_.-]{0,99}$/;
const ref = () =>
  z
    .string()
    .regex(REF_PATTERN, { error: 'must start with a letter or underscore and hold only letters, digits, _ . - (at most 100 characters)' })
    .optional()
    .describe('Author-chosen name other parts of the document point at (unique across tasks, fields, conditions and notifications).');
const refTo = (what: string) => z.string().min(1).max(100).describe(`ref of ${what}`);
const text = (max: number = LIMITS.name) => z.string().max(max);
const name = (max: number = LIMITS.name) => z.string().trim().min(1, { error: 'must not be empty' }).max(max);

/** Members and groups are named, never numbered (spec v3 4.4 rule 2). */
export const namingSchema = lazy(() => z
  .strictObject({ name: name().describe("A member's full name or email, or a group's name (case-insensitive).") })
  .describe('A member or group, by name'));

const choice = () =>
  z
    .strictObject({ id: id(), text: name(1000).describe('What the choice reads; answers store this text.') })
    .describe('An option (DropDown, MultiChoice) or item (SubTasks)');

const dataSetLink = lazy(() => z
  .strictObject({
    name: name().describe('Data Set name (an organisation Data Set or a system one such as Countries).'),
    view: name().optional().describe('View name; default: the default view (All Records).'),
    displayField: name().optional().describe('Data Set field whose value is shown as the choice; default: the first field. Not used by Table.'),
    columns: z
      .array(z.strictObject({ field: name().describe('Data Set field name'), column: name().optional().describe('Column heading; default: the field name') }))
      .max(LIMITS.columns)
      .optional()
      .describe('Table only: which Data Set fields become columns, in order; default: every field.'),
    prePopulateRows: z.boolean().optional().describe('Table only: start with one row per record of the view.'),
  })
  .describe('A link to a Data Set: the field is answered with a record of the view rather than option text.'));

const valueFrom = lazy(() => z
  .strictObject({ parameter: name(100).describe('name of an entry of the top-level `parameters`') })
  .describe('Fill this field when a checklist starts, from a checklist parameter.'));

const base = lazy(() => ({
  id: id(),
  ref: ref(),
  label: text().optional().describe('What the field is called; an unlabelled field is named from its type and position.'),
  isRequired: z.boolean().optional().describe('The task cannot be completed until this field is answered (answerable types only).'),
}));
const answerable = lazy(() => ({ ...base(), valueFrom: valueFrom().optional() }));
const lit = <T extends string>(t: T) => z.literal(t);

export const fieldSchemas = lazy(() => ({
  ShortText: z.strictObject({
    type: lit('ShortText'),
    ...answerable(),
    regex: text(1000).optional().describe('Pattern the answer must match; kept as written (may be wrapped in slashes, which are trimmed before applying). JavaScript syntax.'),
    regexMessage: text(1000).optional().describe('Shown when the answer does not match `regex`.'),
    placeholder: text().optional(),
  }),
  LongText: z.strictObject({ type: lit('LongText'), ...answerable(), placeholder: text().optional() }),
  EmailInput: z.strictObject({ type: lit('EmailInput'), ...answerable() }),
  Website: z.strictObject({ type: lit('Website'), ...answerable() }),
  Date: z.strictObject({
    type: lit('Date'),
    ...answerable(),
    mode: z.enum(['date', 'time', 'date-and-time']).optional().describe('date (default), time, or date-and-time'),
  }),
  DropDown: z.strictObject({
    type: lit('DropDown'),
    ...answerable(),
    options: z.array(choice()).max(LIMITS.options).optional().describe('The choices; give either options or dataSet.'),
    dataSet: dataSetLink().optional(),
  }),
  MultiChoice: z.strictObject({
    type: lit('MultiChoice'),
    ...answerable(),
    options: z.array(choice()).max(LIMITS.options).optional().describe('The choices; give either options or dataSet.'),
    dataSet: dataSetLink().optional(),
  }),
  SubTasks: z.strictObject({
    type: lit('SubTasks'),
    ...base(),
    items: z.array(choice()).max(LIMITS.options).optional().describe('The sub-tasks to tick; give either items or dataSet.'),
    dataSet: dataSetLink().optional(),
  }),
  Members: z.strictObject({
    type: lit('Members'),
    ...base(),
    selectionMode: z.enum(['single', 'multiple']).optional().describe('single: one person; multiple (default): any number'),
    group: name().optional().describe('Offer only the members of this group (by name); default: every member.'),
  }),
  Table: z.strictObject({
    type: lit('Table'),
    ...base(),
    columns: z
      .array(z.strictObject({ id: id(), name: name() }))
      .max(LIMITS.columns)
      .optional()
      .describe('Column headings in order; give either columns or dataSet.'),
    dataSet: dataSetLink().optional(),
  }),
  File: z.strictObject({
    type: lit('File'),
    ...base(),
    files: z
      .array(z.strictObject({ name: name(), url: z.url({ error: 'must be an absolute URL' }).max(2000) }))
      .max(50)
      .optional()
      .describe('Files attached in the template for everyone to read.'),
  }),
  FileUpload: z.strictObject({ type: lit('FileUpload'), ...base() }),
  Image: z.strictObject({
    type: lit('Image'),
    ...base(),
    url: z.url({ error: 'must be an absolute URL' }).max(2000).optional(),
    caption: text().optional(),
  }),
  Video: z.strictObject({ type: lit('Video'), ...base(), url: z.url({ error: 'must be an absolute URL' }).max(2000).optional() }),
  Text: z.strictObject({ type: lit('Text'), ...base(), content: text(LIMITS.content).optional().describe('HTML shown on the task.') }),
  LinkedChecklist: z.strictObject({
    type: lit('LinkedChecklist'),
    ...base(),
    template: name().describe('Name of the template whose checklist this field links to.'),
  }),
}) as const satisfies Record<ContentType, z.ZodType>);

// The field types, in the order of `fieldSchemas` (whose type requires each, and no other).
const TYPES = ['ShortText', 'LongText', 'EmailInput', 'Website', 'Date', 'DropDown', 'MultiChoice', 'SubTasks', 'Members', 'Table', 'File', 'FileUpload', 'Image', 'Video', 'Text', 'LinkedChecklist'] as const;
export type ContentType = (typeof TYPES)[number];
export const CONTENT_TYPES = [...TYPES];
/** Types that hold an answer; the others are content shown on the task. */
export const ANSWERABLE: ReadonlySet<string> = new Set(['ShortText', 'LongText', 'EmailInput', 'Website', 'Date', 'DropDown', 'MultiChoice', 'SubTasks', 'Members', 'Table', 'FileUpload', 'LinkedChecklist']);
/** Types whose answer a checklist parameter / valueFrom can set. */
export const FILLABLE: ReadonlySet<string> = new Set(['ShortText', 'LongText', 'EmailInput', 'Website', 'Date', 'DropDown', 'MultiChoice']);

export const fieldSchema = lazy(() => z.discriminatedUnion('type', Object.values(fieldSchemas()) as unknown as [ReturnType<typeof fieldSchemas>['ShortText'], ReturnType<typeof fieldSchemas>['LongText']]));

export const DUE_DATE_SCENARIOS = ['checklistStart', 'taskCompletion', 'dateField'] as const;
const dueDate = lazy(() => z
  .strictObject({
    relativeTo: z.enum(DUE_DATE_SCENARIOS).describe('checklistStart, taskCompletion (of `task`) or dateField (the answer of `field`)'),
    task: refTo('a task (taskCompletion)').optional(),
    field: refTo('a Date field (dateField)').optional(),
    offsetDays: z.number().int().min(-3650).max(3650).optional(),
    offsetHours: z.number().int().min(-87600).max(87600).optional(),
  })
  .describe('When the task falls due'));

export const taskSchema = lazy(() => z.strictObject({
  id: id(),
  ref: ref(),
  name: name().describe('Task name (a heading: the divider text)'),
  description: text(LIMITS.text).optional(),
  isHeading: z.boolean().optional().describe('A divider: no status, due date, assignees, fields or comments.'),
  isStop: z.boolean().optional().describe('Stop task: every task after it is halted until it is complete.'),
  fields: z.array(fieldSchema()).max(LIMITS.fieldsPerTask).optional(),
  assignees: z.array(namingSchema()).max(LIMITS.assignees).optional().describe('Default assignees of every checklist started'),
  isAssignedExclusively: z.boolean().optional().describe('Only assignees (and Administrators) may complete, reassign or re-date.'),
  dueDate: dueDate().optional(),
  tags: z.array(name(100)).max(LIMITS.tags).optional().describe("Tags put on this task of every checklist started"),
}));

export const CONDITION_OPERATORS = [
  'is',
  'isNot',
  'contains',
  'doesNotContain',
  'startsWith',
  'endsWith',
  'isEmpty',
  'isNotEmpty',
  'isBefore',
  'isAfter',
] as const;
export type ConditionOperator = (typeof CONDITION_OPERATORS)[number];

const clause = lazy(() => z.strictObject({
  field: refTo('the field whose answer is tested'),
  operator: z.enum(CONDITION_OPERATORS),
  value: z.union([z.string().max(1000), z.number(), z.boolean()]).optional().describe('Compared with the answer; omitted for isEmpty and isNotEmpty.'),
}));

export const conditionSchema = lazy(() => z.strictObject({
  id: id(),
  ref: ref(),
  action: z.enum(['show', 'hide']).describe('show: targets are hidden until the rule matches; hide: targets are hidden while it matches'),
  targets: z.array(refTo('a task or field')).min(1).max(LIMITS.tasks),
  match: z.enum(['all', 'any']).optional().describe('all (default): every clause must hold; any: one is enough'),
  when: z.array(clause()).min(1).max(LIMITS.whenClauses),
}));

export const NOTIFICATION_TRIGGERS = ['taskCompleted', 'taskDue', 'checklistCompleted'] as const;
export const notificationSchema = lazy(() => z.strictObject({
  id: id(),
  ref: ref(),
  on: z.enum(NOTIFICATION_TRIGGERS).describe('taskCompleted (of `task`), taskDue (when `task` falls due), checklistCompleted'),
  task: refTo('a task').optional(),
  to: z.array(namingSchema()).min(1).max(LIMITS.assignees).describe('Who receives it'),
  subject: name(),
  message: text(LIMITS.text).optional(),
}));

export const parameterSchema = lazy(() => z.strictObject({
  name: name(100).describe('Key of `parameters` when a checklist is started (POST /v3/checklists)'),
  field: refTo('the field the value fills'),
  description: text(1000).optional(),
}));

export const templateDocumentSchema = lazy(() => z
  .strictObject({
    name: name().describe('Template name (of this version)'),
    description: text(LIMITS.text).optional(),
    allowAttachedTasks: z.boolean().optional().describe('Standalone tasks may be attached to its checklists (default true).'),
    tags: z.array(name(100)).max(LIMITS.tags).optional().describe("The template's tags"),
    parameters: z.array(parameterSchema()).max(LIMITS.parameters).optional(),
    tasks: z.array(taskSchema()).max(LIMITS.tasks).describe('Tasks in order'),
    conditions: z.array(conditionSchema()).max(LIMITS.conditions).optional(),
    notifications: z.array(notificationSchema()).max(LIMITS.notifications).optional(),
  })
  .describe('A Workflow Service template document (docs/template-document.md)'));

export type TemplateDocumentInput = z.infer<ReturnType<typeof templateDocumentSchema>>;

let jsonSchemaCache: Record<string, unknown> | undefined;
/** JSON Schema (draft 2020-12) of the document: GET /v3/schema/template, get_template_schema. */
export function templateJsonSchema(): Record<string, unknown> {
  if (!jsonSchemaCache) {
    const js = z.toJSONSchema(templateDocumentSchema(), { target: 'draft-2020-12', io: 'input' }) as Record<string, unknown>;
    jsonSchemaCache = { ...js, $id: 'urn:wfe:template-document', title: 'Template document' };
  }
  return structuredClone(jsonSchemaCache);
}
