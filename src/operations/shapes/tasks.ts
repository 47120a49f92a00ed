// Response shapes of the task routes (spec v3 2.4; docs/tasks.md where the spec shows none).
// Strict objects: a property the schema does not name is a contract bug. Valueless
// properties are optional (omitted, 2.2); arrays are always present (EMULATOR.md).
import { z } from 'zod';
import { appUrl, count, guidOut, intIdOut, page, timestamp, userRef } from './common';
import { lazy } from '../../lazy';

/** Assignee (2.4): type is part of the identity (member 12 and group 12 differ). */
export const assignee = lazy(() => z
  .strictObject({
    id: intIdOut('Member id or group id'),
    type: z.enum(['TeamMember', 'Group']).describe('TeamMember or Group; part of the identity'),
    name: z.string().optional().describe('Full name or group name; absent for a member recorded with a surname but no first name'),
  })
  .describe('Assignee'));

/** The template object of a checklist reference (2.4): the version the checklist runs. */
export const checklistTemplateRef = lazy(() => z
  .strictObject({
    key: guidOut('Template key'),
    name: z.string().describe('Template name (of the version the checklist runs)'),
    url: appUrl('The template in the app'),
    version: z.number().int().describe('The template version the checklist runs'),
    description: z.string().optional().describe('Template description, when the version has one'),
    createdDateTime: timestamp('When the version was published').optional(),
  })
  .describe('Template of a checklist'));

/** Checklist reference (2.4). */
export const checklistReference = lazy(() => z
  .strictObject({
    key: guidOut('Checklist key'),
    name: z.string().describe('Checklist name'),
    url: appUrl('The checklist in the app'),
    template: checklistTemplateRef(),
  })
  .describe('Checklist reference'));

/** An uploaded file of a File Upload field (docs/tasks.md "Files"). */
export const file = lazy(() => z
  .strictObject({
    id: z.number().int().describe('File id (used to remove it)'),
    name: z.string().describe('File name'),
    contentType: z.string().describe('Media type'),
    size: count('Size in bytes'),
    url: appUrl('Download address; not protected by the API key: anyone holding it can download the file'),
    createdDateTime: timestamp('When uploaded'),
    createdBy: userRef().optional().describe('Who uploaded it'),
  })
  .describe('Uploaded file'));

const linkedRecord = lazy(() => z
  .strictObject({
    recordKey: guidOut('Record key of the linked Data Set view'),
    text: z.string().describe('The record as displayed'),
  })
  .describe('A Data Set record chosen in a linked field'));

/** Field answers as shown (docs/tasks.md "Field values in responses"). */
export const fieldValue = lazy(() => z
  .union([
    z.string().describe('ShortText, LongText, EmailInput, Website, DropDown option text; Date as YYYY-MM-DD, HH:MM or a UTC instant by mode'),
    linkedRecord(),
    z.strictObject({ checklistKey: guidOut('The linked checklist') }).describe('LinkedChecklist'),
    z.array(z.string()).describe('MultiChoice option texts, SubTasks ticked item texts'),
    z.array(linkedRecord()).describe('MultiChoice linked to a Data Set'),
    z.array(assignee()).describe('Members'),
    z.array(z.array(z.string().nullable())).describe('Table: rows, each an array of cell strings or null, in column order'),
    z.array(file()).describe('FileUpload: the uploaded files'),
  ])
  .describe('The answer; absent when a scalar field is unanswered, [] for an unanswered array type'));

/** Field object in a task (2.4). */
export const field = lazy(() => z
  .strictObject({
    key: guidOut('Field key'),
    name: z.string().describe('Field label, or "Unlabelled <type> Content at Position <n>"'),
    type: z.string().describe('Content type, e.g. ShortText'),
    isRequired: z.boolean().describe('Whether the task needs an answer before it can be completed'),
    value: fieldValue().optional(),
    columns: z
      .array(
        z.strictObject({
          key: guidOut('Column key').optional(),
          name: z.string().describe('Column name'),
        }),
      )
      .optional()
      .describe('Table fields only: the columns, in order'),
  })
  .describe('Field'));

/** Comment (2.4). */
export const comment = lazy(() => z
  .strictObject({
    id: z.number().int().describe('Comment id (used to delete)'),
    text: z.string().describe('Markup removed; paragraphs separated by a blank line, line breaks by newline; a mention reads as the name it was written against. Empty for an attachment-only comment'),
    html: z.string().optional().describe('The comment as stored; absent for an attachment-only comment'),
    createdBy: userRef().optional().describe('Author'),
    createdDateTime: timestamp('When written'),
    attachment: z
      .strictObject({
        name: z.string().describe('File name'),
        contentType: z.string().describe('Media type'),
        url: appUrl('Download address; not protected by the API key'),
      })
      .optional()
      .describe('Attached file; absent when none'),
    mentions: z.array(assignee()).describe('Everyone mentioned, in order, each once; name is the name used in the mention'),
  })
  .describe('Comment'));

const STATUS = lazy(() => z.enum(['Incomplete', 'Complete', 'NotApplicable']));

/** Task summary (2.4): everything stored on the task's own row. */
export const taskSummaryProps = lazy(() => ({
  key: guidOut('Task key'),
  name: z.string().describe('Task name'),
  order: z.number().int().describe('Ascending position, not always consecutive; headings share the sequence'),
  isHeading: z.boolean().describe('Heading = divider; has no status, due date, assignees or comments'),
  status: STATUS().optional().describe('Incomplete, Complete or NotApplicable; absent for a heading'),
  isComplete: z.boolean().describe('True only when completed'),
  isNotApplicable: z.boolean().describe('True only when marked not applicable'),
  isCurrentlyHalted: z.boolean().describe('True while behind an incomplete halt task; a halted task cannot be completed'),
  isCurrentlyHidden: z.boolean().describe('True while a condition hides it'),
  isAssignedExclusively: z.boolean().describe('Only assignees (and Administrators) may complete, reassign or re-date; no effect while nobody is assigned'),
  dueDateTime: timestamp('Due date').optional(),
  completedDateTime: timestamp('When completed (or marked not applicable)').optional(),
  completedBy: userRef().optional().describe('Who completed it; absent until completed or if the member left'),
  notApplicableDateTime: timestamp('When marked not applicable').optional(),
  notApplicableBy: userRef().optional().describe('Who marked it not applicable'),
}));

/** Task (2.4): summary plus assignees, fields, comments (the status routes' answer). */
export const taskProps = lazy(() => ({
  ...taskSummaryProps(),
  assignees: z.array(assignee()).describe('Groups first, then by name; empty when none'),
  fields: z.array(field()).describe('Current field values, omitting fields a condition currently hides'),
  comments: z.array(comment()).describe('Oldest first'),
}));

/** Task detail (2.4): task plus checklist and tags (get). */
export const taskDetailProps = lazy(() => ({
  ...taskProps(),
  checklist: checklistReference().describe('The checklist the task is on'),
  tags: z.array(z.string()).describe("The task's own tags by name, in name order; checklist tags excluded"),
}));

export const taskSummary = lazy(() => z.strictObject(taskSummaryProps()).describe('Task summary'));
export const task = lazy(() => z.strictObject(taskProps()).describe('Task'));
export const taskDetail = lazy(() => z.strictObject(taskDetailProps()).describe('Task detail'));

/** What only a standalone task has (docs/checklists.md "Standalone tasks"). */
export const standaloneProps = lazy(() => ({
  isStandalone: z.literal(true).describe('Always true'),
  description: z.string().optional().describe('Task description; absent when none'),
  raisedBy: userRef().optional().describe('Who raised it'),
  createdDateTime: timestamp('When raised'),
  url: appUrl('The task in the app'),
}));
export const standaloneSummary = lazy(() => z.strictObject({ ...taskSummaryProps(), ...standaloneProps() }).describe('Standalone task summary'));
export const standaloneDetail = lazy(() => z
  .strictObject({
    ...taskDetailProps(),
    checklist: checklistReference().optional().describe('The checklist the task is attached to; absent while unattached'),
    ...standaloneProps(),
  })
  .describe('Standalone task'));

export const taskList = lazy(() => z.strictObject({ tasks: z.array(taskSummary()).describe('Every task in checklist order') }));
export const assigneesOfTask = lazy(() => z.strictObject({
  assignees: z.array(assignee()).describe('Groups first, then by name; empty when none (and for a heading)'),
  isAssignedExclusively: z.boolean().describe('Whether only assignees (and Administrators) may complete, reassign or re-date'),
}));
export const dueDateOfTask = lazy(() => z.strictObject({ dueDateTime: timestamp('Due date; absent (an empty object) when the task has none').optional() }));
export const commentList = lazy(() => z.strictObject({ comments: z.array(comment()).describe('Oldest first') }));
export const snooze = lazy(() => z
  .strictObject({
    isSnoozed: z.boolean().describe('Whether the task is snoozed for the member the key acts as'),
    snoozedUntil: timestamp('Until when; absent when not snoozed').optional(),
  })
  .describe('Snooze'));
export const tagNames = lazy(() => z.strictObject({ tags: z.array(z.string()).describe('Tag names, in name order') }));
export const activityEntry = lazy(() => z
  .strictObject({
    id: z.number().int().describe('Entry id'),
    action: z.string().describe('Stable machine name, e.g. task.completed, task.assigned, field.answered'),
    text: z.string().describe('Who did what, as a sentence; dates in it written in the zone of the request that made the change'),
    createdDateTime: timestamp('When it happened'),
    createdBy: userRef().optional().describe('Who did it'),
    details: z.record(z.string(), z.unknown()).optional().describe('Details of the change, by action'),
  })
  .describe('Activity entry'));
export const activityPage = lazy(() => page(activityEntry(), 'activity entries, newest first'));
export const fieldList = lazy(() => z.strictObject({ fields: z.array(field()).describe('The answerable fields in template order, omitting fields a condition hides') }));
export const fileList = lazy(() => z.strictObject({ files: z.array(file()).describe('The files, oldest first') }));
