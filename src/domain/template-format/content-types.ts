// The content types of template fields (spec v3 2.5 and the gap list of 2.5;
// docs/template-document.md). One entry per type: what it is, what it stores
// as an answer, its own properties, the operators conditions may use on it, and
// an example field. GET /v3/schema/content-types[/{type}] and the MCP tools
// list_content_types / describe_content_type answer from here.
import { z } from 'zod';
import { CONTENT_TYPES, fieldSchemas, ANSWERABLE, FILLABLE, type ContentType } from './document-schema';
import { operatorsFor } from './operators';
import { notFound } from '../../errors';

interface TypeInfo {
  displayName: string;
  description: string;
  answer: string;
  example: Record<string, unknown>;
}

export const TYPE_INFO: Record<ContentType, TypeInfo> = {
  ShortText: {
    displayName: 'Short Text',
    description: 'One line of text. `regex` (kept as written; slashes around it are trimmed before applying) checks the answer; `regexMessage` explains a mismatch.',
    answer: 'string',
    example: { ref: 'employee_id', type: 'ShortText', label: 'Employee ID', isRequired: true, regex: '/^E\\d{4}$/', regexMessage: 'Employee IDs look like E1234.' },
  },
  LongText: { displayName: 'Long Text', description: 'Several lines of text.', answer: 'string', example: { ref: 'notes', type: 'LongText', label: 'Notes' } },
  EmailInput: { displayName: 'Email', description: 'An e-mail address.', answer: 'string (an address)', example: { ref: 'contact', type: 'EmailInput', label: 'Contact e-mail' } },
  Website: { displayName: 'Website', description: 'A web address.', answer: 'string (a URL)', example: { ref: 'homepage', type: 'Website', label: 'Company website' } },
  Date: {
    displayName: 'Date & Time',
    description: '`mode`: date (default), time, or date-and-time. A Date field can drive a due date (dueDate.relativeTo dateField).',
    answer: "string: 'YYYY-MM-DD' (date), 'HH:MM' (time), ISO instant ending Z (date-and-time)",
    example: { ref: 'start_date', type: 'Date', label: 'Start date', mode: 'date' },
  },
  DropDown: {
    displayName: 'Drop-Down',
    description: 'One choice from `options`, or from the records of a Data Set view (`dataSet` with name, view, displayField). Give one of the two.',
    answer: 'string: the option text; {recordKey, text} when linked to a Data Set',
    example: { ref: 'employment_type', type: 'DropDown', label: 'Employment type', options: [{ text: 'Full-time' }, { text: 'Contractor' }] },
  },
  MultiChoice: {
    displayName: 'Multi-Choice',
    description: 'Any number of choices from `options` or a Data Set view.',
    answer: 'array of option texts (or of {recordKey, text})',
    example: { ref: 'equipment', type: 'MultiChoice', label: 'Equipment', options: [{ text: 'Laptop' }, { text: 'Phone' }] },
  },
  SubTasks: {
    displayName: 'Sub-Tasks',
    description: 'A list of `items` to tick (or the records of a Data Set view).',
    answer: 'array of ticked item texts',
    example: { ref: 'accounts', type: 'SubTasks', label: 'Accounts', items: [{ text: 'Email' }, { text: 'VPN' }] },
  },
  Members: {
    displayName: 'Members',
    description: 'People of the workspace. `selectionMode` single (one person) or multiple (default); `group` offers only that group\'s members.',
    answer: 'array of member ids',
    example: { ref: 'approver', type: 'Members', label: 'Approver', selectionMode: 'single' },
  },
  Table: {
    displayName: 'Table',
    description: 'Rows of cells under `columns`, or columns taken from a Data Set (`dataSet.columns`, `dataSet.prePopulateRows`).',
    answer: 'array of rows, each an array of cell strings (null = empty) in column order',
    example: { ref: 'access_log', type: 'Table', label: 'Access log', columns: [{ name: 'System' }, { name: 'Granted by' }] },
  },
  File: {
    displayName: 'File',
    description: 'Files attached in the template for everyone to read (`files`: name and url). Takes no answer.',
    answer: 'none',
    example: { ref: 'handbook', type: 'File', label: 'Handbook', files: [{ name: 'handbook.pdf', url: 'https://example.com/handbook.pdf' }] },
  },
  FileUpload: { displayName: 'File Upload', description: 'Files uploaded on the checklist.', answer: 'uploaded files (the task field file routes)', example: { ref: 'receipts', type: 'FileUpload', label: 'Receipts', isRequired: true } },
  Image: { displayName: 'Image', description: 'An image shown on the task (`url`, `caption`). Takes no answer.', answer: 'none', example: { type: 'Image', url: 'https://example.com/floorplan.png', caption: 'Floor plan' } },
  Video: { displayName: 'Video', description: 'A video shown on the task (`url`). Takes no answer.', answer: 'none', example: { type: 'Video', url: 'https://example.com/welcome.mp4' } },
  Text: { displayName: 'Text', description: 'Text content (HTML in `content`) shown on the task. Takes no answer.', answer: 'none', example: { type: 'Text', content: '<p>Read the handbook before your first day.</p>' } },
  LinkedChecklist: {
    displayName: 'Linked Checklist',
    description: 'Links a checklist of another template, named in `template`.',
    answer: '{checklistKey}',
    example: { ref: 'it_setup', type: 'LinkedChecklist', label: 'IT setup', template: 'IT Setup' },
  },
};

export const displayName = (type: string): string => (TYPE_INFO as Record<string, TypeInfo>)[type]?.displayName ?? type;

function summary(type: ContentType) {
  const i = TYPE_INFO[type];
  return {
    type,
    displayName: i.displayName,
    description: i.description,
    isAnswerable: ANSWERABLE.has(type),
    canBeRequired: ANSWERABLE.has(type),
    canBeFilledFromParameter: FILLABLE.has(type),
  };
}

export function listContentTypes() {
  return { contentTypes: CONTENT_TYPES.map(summary) };
}

const schemas = new Map<string, Record<string, unknown>>();
export function describeContentType(name: string) {
  const type = CONTENT_TYPES.find((t) => t.toLowerCase() === name.trim().toLowerCase());
  if (!type) {
    throw notFound('CONTENT_TYPE_NOT_FOUND', `No content type is named "${name}". Known: ${CONTENT_TYPES.join(', ')}.`);
  }
  let schema = schemas.get(type);
  if (!schema) {
    schema = z.toJSONSchema(fieldSchemas()[type], { target: 'draft-2020-12', io: 'input' }) as Record<string, unknown>;
    delete schema.$schema;
    schemas.set(type, schema);
  }
  const i = TYPE_INFO[type];
  return { ...summary(type), answer: i.answer, conditionOperators: operatorsFor(type), schema: structuredClone(schema), example: structuredClone(i.example) };
}
