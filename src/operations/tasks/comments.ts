// Comments (spec v3 2.4 comment, 4.3; EMULATOR.md: POST {html | text, assignedMentioned?,
// attachment?} answers 201 with the comment).
import { z } from 'zod';
import type { Operation } from '../define';
import { CREATE, REMOVE, mixed } from '../define';
import { comment, commentList } from '../shapes/tasks';
import { addComment, deleteComment, listComments, prepareComment } from '../../domain/tasks/comments';
import { fileInput } from './inputs';
import { given, intId, text } from '../input-kinds';
import { namingList } from './naming';
import { taskOperation, taskRead, whereText, type WhereKind } from './where';

export const commentOperations = (w: WhereKind): Operation[] => [
  taskRead(w, {
    id: 'listTaskComments',
    noTool: 'The spec names no tool for this read: it is covered by get_task (4.3).',
    suffix: '/comments',
    summary: `List the comments of ${whereText(w)}`,
    description: 'Returns {comments}, oldest first.',
    output: commentList,
    refusals: ['403 FORBIDDEN'],
    run: listComments,
  }),
  taskOperation(w, {
    id: 'addTaskComment',
    tool: 'add_task_comment',
    method: 'POST',
    suffix: '/comments',
    summary: `Comment on ${whereText(w)}`,
    fidelity: mixed('4.3, 5.4, 5.8', 'docs/decisions.md', 'assignedMentioned assigns under the same rule as the assignee route (docs/decisions.md); the comment bodies'),
    description:
      'Body {html | text, assignedMentioned?, attachment?: {name, contentType, data (base64)}}. A mention in html is an element with data-mention-type and data-mention-id. People in assignedMentioned are mentioned and assigned. Not idempotent without an Idempotency-Key. Answers 201 with the comment.',
    input: () => ({
      html: text(100_000, 'must be a string of HTML').optional().describe('The comment as HTML; a mention is an element with data-mention-type and data-mention-id. Send html or text, not both'),
      text: text(50_000).optional().describe('The comment as plain text (escaped into paragraphs); instead of html'),
      assignedMentioned: namingList('people to mention and assign').optional().describe('People and groups to mention and also assign to the task: {type, id} or {name} each'),
      attachment: z.object(fileInput(), { error: 'must be {name, contentType, data}' }).optional().describe('A file attached to the comment'),
    }),
    output: comment,
    // prepareComment (domain/tasks/comments): html or text, not both; something to say or a file.
    bodyRule: {
      not: given('html', 'text'),
      anyOf: [{ required: ['html'], properties: { html: { pattern: '\\S' } } }, { required: ['text'], properties: { text: { pattern: '\\S' } } }, { required: ['attachment'] }],
    },
    refusals: ['403 FORBIDDEN'],
    annotations: CREATE,
    status: 201,
    handler: (ctx, input, t) => {
      // The body is checked before the task is looked up (400 before 404).
      const prepared = prepareComment(ctx, input);
      return addComment(ctx, t(), prepared);
    },
  }),
  taskOperation(w, {
    id: 'removeTaskComment',
    tool: 'remove_task_comment',
    method: 'DELETE',
    suffix: '/comments/:commentId',
    summary: `Delete a comment of ${whereText(w)}`,
    description: 'Comments cannot be edited; they stay or are deleted whole, by their author or an Administrator. Answers 204.',
    input: () => ({ commentId: intId().describe('The comment id (from the comment list)') }),
    refusals: ['403 FORBIDDEN', '404 COMMENT_NOT_FOUND'],
    annotations: REMOVE,
    status: 204,
    handler: (ctx, input, t) => deleteComment(ctx, t(), input.commentId),
  }),
];
