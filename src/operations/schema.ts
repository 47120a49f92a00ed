// Schema routes (spec v3 4.4 rule 4, 8: all cheap): the template document's JSON
// Schema, the authoring guide, content types, condition operators, due-date
// scenarios and the validation codes.
import { z } from 'zod';
import { READ, defineOperation } from './define';
import { templateJsonSchema } from '../domain/templates/schema';
import { authoringGuide } from '../domain/schema/guide';
import { describeContentType, listContentTypes } from '../domain/schema/content-types';
import { OPERATORS } from '../domain/schema/operators';
import { listDueDateScenarios } from '../domain/schema/due-dates';
import { listValidationCodes } from '../domain/schema/codes';

export const schemaOperations = [
  defineOperation({
    id: 'getTemplateSchema',
    tool: 'get_template_schema',
    method: 'GET',
    path: '/v3/schema/template',
    summary: 'Get the JSON Schema of the template document',
    description: 'JSON Schema (draft 2020-12) that create, validate, publish and drafts check documents against. Cheap.',
    input: {},
    budget: 'cheap',
    annotations: READ,
    handler: () => templateJsonSchema(),
  }),
  defineOperation({
    id: 'getAuthoringGuide',
    tool: 'get_authoring_guide',
    method: 'GET',
    path: '/v3/schema/authoring-guide',
    summary: 'Get the guide to writing template documents',
    description: 'Markdown (`text`) with a worked example, also given parsed as `example`. Start here to write a template. Cheap.',
    input: {},
    budget: 'cheap',
    annotations: READ,
    handler: () => authoringGuide(),
  }),
  defineOperation({
    id: 'listContentTypes',
    tool: 'list_content_types',
    method: 'GET',
    path: '/v3/schema/content-types',
    summary: 'List the content types of template fields',
    input: {},
    budget: 'cheap',
    annotations: READ,
    handler: () => listContentTypes(),
  }),
  defineOperation({
    id: 'describeContentType',
    tool: 'describe_content_type',
    method: 'GET',
    path: '/v3/schema/content-types/:type',
    summary: 'Describe one content type',
    description: 'Its properties (JSON Schema), answer shape, condition operators and an example field. Unknown type: 404 CONTENT_TYPE_NOT_FOUND. Cheap.',
    input: { type: z.string({ error: 'must be a content type name' }).min(1, { error: 'must be a content type name' }).max(100, { error: 'must be a content type name' }) },
    budget: 'cheap',
    annotations: READ,
    handler: (_ctx, input) => describeContentType(input.type),
  }),
  defineOperation({
    id: 'listConditionOperators',
    tool: 'list_condition_operators',
    method: 'GET',
    path: '/v3/schema/condition-operators',
    summary: 'List the operators conditions may use',
    input: {},
    budget: 'cheap',
    annotations: READ,
    handler: () => ({ operators: OPERATORS.map((o) => ({ ...o, contentTypes: [...o.contentTypes] })) }),
  }),
  defineOperation({
    id: 'listDueDateScenarios',
    tool: 'list_due_date_scenarios',
    method: 'GET',
    path: '/v3/schema/due-date-scenarios',
    summary: 'List the ways a task due date can be set',
    input: {},
    budget: 'cheap',
    annotations: READ,
    handler: () => listDueDateScenarios(),
  }),
  defineOperation({
    id: 'listValidationCodes',
    method: 'GET',
    path: '/v3/schema/validation-codes',
    summary: 'List the violation codes of template validation',
    input: {},
    budget: 'cheap',
    annotations: READ,
    handler: () => listValidationCodes(),
  }),
];
