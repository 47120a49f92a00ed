// Condition operators (docs/template-document.md "Conditions"): which content
// types each applies to and whether it takes a `value`. The checklist area
// evaluates them; the validator refuses an operator a field type cannot take.
import type { ConditionOperator } from './document-schema';

export interface OperatorInfo {
  name: ConditionOperator;
  description: string;
  takesValue: boolean;
  contentTypes: string[];
}

const TEXT = ['ShortText', 'LongText', 'EmailInput', 'Website'];
const CHOICES_MANY = ['MultiChoice', 'SubTasks', 'Members'];
const ALL_ANSWERABLE = ['ShortText', 'LongText', 'EmailInput', 'Website', 'Date', 'DropDown', 'MultiChoice', 'SubTasks', 'Members', 'Table', 'FileUpload', 'LinkedChecklist'];

export const OPERATORS: OperatorInfo[] = [
  { name: 'is', description: 'The answer equals `value` (text: case-insensitive; DropDown: the option text; Date: same day or time).', takesValue: true, contentTypes: [...TEXT, 'Date', 'DropDown'] },
  { name: 'isNot', description: 'The answer is given and differs from `value`.', takesValue: true, contentTypes: [...TEXT, 'Date', 'DropDown'] },
  { name: 'contains', description: 'Text: contains `value` (case-insensitive). MultiChoice / SubTasks: that option or item is chosen or ticked. Members: that member (name or email) is selected.', takesValue: true, contentTypes: [...TEXT, ...CHOICES_MANY] },
  { name: 'doesNotContain', description: 'The negation of contains (an empty answer does not contain anything).', takesValue: true, contentTypes: [...TEXT, ...CHOICES_MANY] },
  { name: 'startsWith', description: 'The text answer starts with `value` (case-insensitive).', takesValue: true, contentTypes: TEXT },
  { name: 'endsWith', description: 'The text answer ends with `value` (case-insensitive).', takesValue: true, contentTypes: TEXT },
  { name: 'isBefore', description: 'The Date answer is before `value` (YYYY-MM-DD, HH:MM, or an ISO instant, by the field mode).', takesValue: true, contentTypes: ['Date'] },
  { name: 'isAfter', description: 'The Date answer is after `value`.', takesValue: true, contentTypes: ['Date'] },
  { name: 'isEmpty', description: 'The field has no answer (no text, no choice, no row, no file). Takes no value.', takesValue: false, contentTypes: ALL_ANSWERABLE },
  { name: 'isNotEmpty', description: 'The field has an answer. Takes no value.', takesValue: false, contentTypes: ALL_ANSWERABLE },
];

export const operatorsFor = (type: string): string[] => OPERATORS.filter((o) => o.contentTypes.includes(type)).map((o) => o.name);
export const operatorInfo = (name: string): OperatorInfo | undefined => OPERATORS.find((o) => o.name === name);
