// Schema routes (spec v3 4.4 rule 4, 8: all cheap): the template document's JSON
// Schema, the authoring guide, content types, condition operators, due-date
// scenarios and the validation codes.
import { z } from 'zod';
import { READ, mixed } from './define';
import { defineWith } from './define-with';
import { authoringGuide as guideShape, conditionOperators, contentType, contentTypes, dueDateScenarios, templateSchema, validationCodes } from './shapes/template-format';

const schemaOperation = defineWith({ tag: 'Template schema', budget: 'cheap' });
import { templateJsonSchema } from '../domain/template-format/document-schema';
import { authoringGuide } from '../domain/template-format/guide';
import { describeContentType, listContentTypes } from '../domain/template-format/content-types';
import { OPERATORS } from '../domain/template-format/operators';
import { listDueDateScenarios } from '../domain/template-format/due-dates';
import { listValidationCodes } from '../domain/template-format/codes';

export const schemaOperations = [
  schemaOperation({
    id: 'getTemplateSchema',
    tool: 'get_template_schema',
    method: 'GET',
    path: '/v3/schema/template',
    summary: 'Get the JSON Schema of the template document',
    fidelity: mixed('4.4 rule 4', 'docs/template-document.md', 'the JSON Schema of the template document (not shown)'),
    description: 'JSON Schema (draft 2020-12) that create, validate, publish and drafts check documents against. Cheap.',
    input: () => ({}),
    output: templateSchema,
    refusals: [],
    annotations: READ,
    handler: () => templateJsonSchema(),
  }),
  schemaOperation({
    id: 'getAuthoringGuide',
    tool: 'get_authoring_guide',
    method: 'GET',
    path: '/v3/schema/authoring-guide',
    summary: 'Get the guide to writing template documents',
    fidelity: mixed('4.4 rule 4', 'docs/template-document.md', 'the guide text (not shown)'),
    description: 'Markdown (`text`) with a worked example, also given parsed as `example`. Start here to write a template. Cheap.',
    input: () => ({}),
    output: guideShape,
    refusals: [],
    annotations: READ,
    handler: () => authoringGuide(),
  }),
  schemaOperation({
    id: 'listContentTypes',
    tool: 'list_content_types',
    method: 'GET',
    path: '/v3/schema/content-types',
    summary: 'List the content types of template fields',
    fidelity: mixed('4.4 rule 4', 'docs/template-document.md', 'the response body (not shown)'),
    description: 'Every content type a template field may have, with whether it takes an answer, may be required or filled from a checklist parameter. Cheap.',
    input: () => ({}),
    output: contentTypes,
    refusals: [],
    annotations: READ,
    handler: () => listContentTypes(),
  }),
  schemaOperation({
    id: 'describeContentType',
    tool: 'describe_content_type',
    method: 'GET',
    path: '/v3/schema/content-types/:type',
    summary: 'Describe one content type',
    fidelity: mixed('4.4 rule 4', 'docs/template-document.md', 'the response body (not shown)'),
    description: 'Its properties (JSON Schema), answer shape, condition operators and an example field. Unknown type: 404 CONTENT_TYPE_NOT_FOUND. Cheap.',
    input: () => ({
      type: z
        .string({ error: 'must be a content type name' })
        .min(1, { error: 'must be a content type name' })
        .max(100, { error: 'must be a content type name' })
        .describe('content type name, e.g. ShortText (case-insensitive; list_content_types lists them)'),
    }),
    output: contentType,
    refusals: ['404 CONTENT_TYPE_NOT_FOUND'],
    annotations: READ,
    handler: (_ctx, input) => describeContentType(input.type),
  }),
  schemaOperation({
    id: 'listConditionOperators',
    tool: 'list_condition_operators',
    method: 'GET',
    path: '/v3/schema/condition-operators',
    summary: 'List the operators conditions may use',
    fidelity: mixed('4.4 rule 4', 'docs/template-document.md', 'the response body (not shown)'),
    description: 'Every operator a condition clause may use, whether it takes a `value`, and the field types it applies to. Cheap.',
    input: () => ({}),
    output: conditionOperators,
    refusals: [],
    annotations: READ,
    handler: () => ({ operators: OPERATORS.map((o) => ({ ...o, contentTypes: [...o.contentTypes] })) }),
  }),
  schemaOperation({
    id: 'listDueDateScenarios',
    tool: 'list_due_date_scenarios',
    method: 'GET',
    path: '/v3/schema/due-date-scenarios',
    summary: 'List the ways a task due date can be set',
    fidelity: mixed('4.4 rule 4', 'docs/template-document.md', 'the response body (not shown)'),
    description: 'The ways a task due date can be set in a template document (`dueDate.relativeTo`), with what each needs and an example. Cheap.',
    input: () => ({}),
    output: dueDateScenarios,
    refusals: [],
    annotations: READ,
    handler: () => listDueDateScenarios(),
  }),
  schemaOperation({
    id: 'listValidationCodes',
    noTool: 'The spec names no MCP tool for the validation codes (8 lists the schema tools); every violation a tool answers carries its code and message.',
    method: 'GET',
    path: '/v3/schema/validation-codes',
    summary: 'List the violation codes of template validation',
    fidelity: mixed('4.4 rule 4', 'docs/validation-codes.md', 'the codes and the response body (not shown)'),
    description: 'Every violation code template validation gives, with its severity, an example path and when it is given (docs/validation-codes.md). Cheap.',
    input: () => ({}),
    output: validationCodes,
    refusals: [],
    annotations: READ,
    handler: () => listValidationCodes(),
  }),
];
