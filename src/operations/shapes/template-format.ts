// Shapes of the schema routes (spec v3 4.4 rule 4 "not shown"; docs/template-document.md).
import { z } from 'zod';
import { CONDITION_OPERATORS, CONTENT_TYPES, DUE_DATE_SCENARIOS, templateDocumentSchema } from '../../domain/template-format/document-schema';
import { VIOLATION_CODES } from './templates';
import { listUnder } from './common';
import { lazy } from '../../lazy';

/** A JSON Schema document: the properties we always give are named, the rest is JSON Schema. */
export const jsonSchemaDoc = (description: string) =>
  z
    .looseObject({
      type: z.literal('object').describe('Always an object'),
      properties: z.record(z.string(), z.unknown()).describe('Its properties, each a JSON Schema'),
    })
    .describe(description);

export const templateSchema = lazy(() => z
  .looseObject({
    $schema: z.string().describe('The JSON Schema dialect (draft 2020-12)'),
    $id: z.literal('urn:wfe:template-document').describe('Identifier of this schema'),
    title: z.literal('Template document').describe('Title of this schema'),
    type: z.literal('object').describe('A template document is one JSON object'),
    properties: z.record(z.string(), z.unknown()).describe('The properties of a template document'),
    required: z.array(z.string()).describe('Properties every document has'),
  })
  .describe('JSON Schema (draft 2020-12) of the template document'));

export const authoringGuide = lazy(() => z
  .strictObject({
    title: z.string().describe('Title of the guide'),
    format: z.literal('markdown').describe('Format of `text`'),
    text: z.string().describe('The guide, in Markdown'),
    example: templateDocumentSchema().optional().describe('The worked example of the guide, parsed'),
  })
  .describe('Guide to writing template documents'));

const contentTypeSummary = lazy(() => ({
  type: z.enum(CONTENT_TYPES).describe('Content type name, as a field `type`'),
  displayName: z.string().describe('Name shown in the app'),
  description: z.string().describe('What it is and its own properties'),
  isAnswerable: z.boolean().describe('Whether it takes an answer'),
  canBeRequired: z.boolean().describe('Whether isRequired may be set'),
  canBeFilledFromParameter: z.boolean().describe('Whether a checklist parameter may fill it'),
}));

export const contentTypes = lazy(() => listUnder('contentTypes', z.strictObject(contentTypeSummary()).describe('Content type'), 'Every content type').describe('Content types of template fields'));

export const contentType = lazy(() => z
  .strictObject({
    ...contentTypeSummary(),
    answer: z.string().describe('What an answer looks like'),
    conditionOperators: z.array(z.enum(CONDITION_OPERATORS)).describe('Operators a condition may use on it'),
    schema: jsonSchemaDoc('JSON Schema of a field of this type in a template document'),
    example: z.record(z.string(), z.unknown()).describe('An example field of this type'),
  })
  .describe('A content type described'));

export const conditionOperators = lazy(() => listUnder(
  'operators',
  z.strictObject({
    name: z.enum(CONDITION_OPERATORS).describe('Operator, as `operator` in a condition clause'),
    description: z.string().describe('When it holds'),
    takesValue: z.boolean().describe('Whether the clause has a `value`'),
    contentTypes: z.array(z.enum(CONTENT_TYPES)).describe('Field types it applies to'),
  }),
  'Every operator',
).describe('Condition operators'));

export const dueDateScenarios = lazy(() => listUnder(
  'scenarios',
  z.strictObject({
    relativeTo: z.enum(DUE_DATE_SCENARIOS).describe('Value of dueDate.relativeTo'),
    description: z.string().describe('How the due date is set'),
    needs: z.array(z.enum(['task', 'field'])).describe('Other dueDate properties it needs'),
    example: z.record(z.string(), z.unknown()).describe('An example dueDate'),
    offsets: z.string().describe('How offsets are given'),
  }),
  'Every scenario',
).describe('Due-date scenarios'));

export const validationCodes = lazy(() => listUnder(
  'codes',
  z.strictObject({
    code: z.enum(VIOLATION_CODES).describe('Violation code'),
    severity: z.enum(['error', 'warning']).describe('error refuses the document, warning does not'),
    path: z.string().describe('An example path where it is reported'),
    description: z.string().describe('When it is given'),
  }),
  'Every code the validator gives',
).describe('Violation codes of template validation'));
