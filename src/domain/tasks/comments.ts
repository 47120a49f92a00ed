// Comments (spec v3 2.4 comment, 4.3, 5.8; EMULATOR.md: POST {html | text, assignedMentioned?,
// attachment?} answers 201 with the comment). Never edited; deleted whole by the author or an
// Administrator. comment_created fires for every comment written (6).
import type { Ctx } from '../../context';
import { forbidden, notFound, validationError } from '../../errors';
import { actorName, recordActivity } from '../activity';
import { assertCanAssignOrDate } from '../access/checklists';
import { groupById, memberById, type AssigneeRef } from '../../rows/people';
import { decodeFile, storeFile, type FileInput } from './files';
import { assertTaskReadable, refuseHeading } from './guard';
import { htmlToText, textToHtml } from './html-text';
import { resolveNaming, type NamingEntry } from './naming';
import type { TaskTarget } from './target';
import { assigneesOf, commentView, commentsOf } from './views';
import { commentById, commentOfTask, deleteComment as deleteCommentRow, insertComment } from '../../rows/comments';
import { deleteFile } from '../../rows/files';
import { addTaskAssignee } from '../../rows/task-assignees';

export interface AddCommentInput {
  html?: string;
  text?: string;
  assignedMentioned?: NamingEntry[];
  attachment?: FileInput;
}

export interface PreparedComment {
  html: string | null;
  text: string;
  mentions: { id: number; type: 'TeamMember' | 'Group'; name?: string }[];
  assign: AssigneeRef[];
  file: { name: string; contentType: string; bytes: Buffer } | null;
}

/** Validates the body before the task is looked up (400 before 404). */
export function prepareComment(ctx: Ctx, input: AddCommentInput): PreparedComment {
  if (input.html !== undefined && input.text !== undefined) throw validationError('Send the comment as html or as text, not both.', 'text');
  const html = input.html ?? (input.text !== undefined ? textToHtml(input.text) : undefined);
  const derived = html === undefined ? { text: '', mentions: [] } : htmlToText(html);
  const mentions: PreparedComment['mentions'] = [];
  const push = (m: PreparedComment['mentions'][number]) => {
    if (!mentions.some((x) => x.type === m.type && x.id === m.id)) mentions.push(m);
  };
  derived.mentions.forEach((m, i) => {
    const id = Number(m.id);
    if (!Number.isInteger(id) || id < 1) throw validationError(`html mention ${i + 1} has data-mention-id '${m.id}', which is not an integer id.`, 'html');
    const r = resolveNaming(ctx, { type: m.type, id }, 'html.mentions' + `[${i}]`);
    push({ id: r.id, type: r.type, name: m.name || undefined });
  });
  const file = input.attachment ? decodeFile(input.attachment, 'attachment') : null;
  const assign: AssigneeRef[] = [];
  (input.assignedMentioned ?? []).forEach((e, i) => {
    const r = resolveNaming(ctx, e, `assignedMentioned[${i}]`);
    if (!assign.some((a) => a.type === r.type && a.id === r.id)) assign.push(r);
    push({ id: r.id, type: r.type, name: nameOf(ctx, r) });
  });
  const hasHtml = html !== undefined && (derived.text !== '' || derived.mentions.length > 0);
  if (!hasHtml && !file) {
    throw validationError(
      input.text !== undefined ? 'text must not be empty (or send an attachment).' : 'A comment needs html (or text) with something in it, or an attachment.',
      input.text !== undefined ? 'text' : 'html',
    );
  }
  return { html: hasHtml ? html! : null, text: derived.text, mentions, assign, file };
}

function nameOf(ctx: Ctx, r: AssigneeRef): string | undefined {
  if (r.type === 'Group') return groupById(ctx.db, r.id)?.name;
  const m = memberById(ctx.db, r.id);
  return m?.first_name ? [m.first_name, m.last_name].filter(Boolean).join(' ') : undefined;
}

export function listComments(ctx: Ctx, t: TaskTarget) {
  assertTaskReadable(ctx, t);
  return { comments: commentsOf(ctx, t.task.id) };
}

/**
 * Any key of the workspace may comment (5.8: refusal none). People in `assignedMentioned` are
 * mentioned and also assigned to the task, which needs what assigning needs on every path: read
 * access to the task (5.4) and the assign right of 5.8 row 2 (docs/decisions.md "One rule for
 * assigning").
 */
/** `onBehalfOf`: the member recorded as its author when not the key's own (legacy 4.2 `createdByUserID`). */
export function addComment(ctx: Ctx, t: TaskTarget, c: PreparedComment, opts: { onBehalfOf?: number } = {}) {
  refuseHeading(t, 'A heading has no comments.');
  const where = { checklistId: t.task.checklist_id ?? t.task.attached_checklist_id, taskId: t.task.id };
  if (c.assign.length) {
    assertTaskReadable(ctx, t);
    assertCanAssignOrDate(ctx, t.task);
    const had = assigneesOf(ctx, t.task.id);
    for (const a of c.assign) {
      if (had.some((h) => h.type === a.type && h.id === a.id)) continue;
      addTaskAssignee(ctx.db, t.task.id, a.type, a.id);
      recordActivity(ctx, { ...where, action: 'task.assigned', text: `${actorName(ctx)} assigned ${nameOf(ctx, a) ?? `${a.type} ${a.id}`} by mentioning them.`, data: { assigneeType: a.type, assigneeId: a.id } });
      ctx.hooks.event?.(ctx, 'task_assigned', { taskId: t.task.id, assigneeType: a.type, assigneeId: a.id });
    }
  }
  const fileId = c.file ? storeFile(ctx, t.task.id, null, c.file) : null;
  const id = insertComment(ctx.db, {
    task_id: t.task.id,
    author_id: opts.onBehalfOf ?? ctx.actor.member.id,
    html: c.html,
    text: c.text,
    mentions: JSON.stringify(c.mentions),
    file_id: fileId,
    created_at: ctx.now(),
  });
  recordActivity(ctx, { ...where, action: 'comment.added', text: `${actorName(ctx)} commented.`, data: { commentId: id } });
  ctx.hooks.event?.(ctx, 'comment_created', { commentId: id });
  return commentView(ctx, commentById(ctx.db, id)!);
}

/**
 * DELETE .../comments/{commentId}: its author or an Administrator (5.8), and nobody else. The
 * author needs no read access: any key may comment (5.8), so whoever wrote it may take it back.
 */
export function deleteComment(ctx: Ctx, t: TaskTarget, commentId: number): void {
  const c = commentOfTask(ctx.db, t.task.id, commentId);
  if (!c) throw notFound('COMMENT_NOT_FOUND', `No comment with id ${commentId} exists on this task.`);
  if (!ctx.actor.isAdmin && c.author_id !== ctx.actor.member.id) {
    throw forbidden('Only the author of a comment or an Administrator may delete it. An Administrator can delete it for you.');
  }
  deleteCommentRow(ctx.db, c.id);
  if (c.file_id !== null) deleteFile(ctx.db, c.file_id);
  recordActivity(ctx, {
    checklistId: t.task.checklist_id ?? t.task.attached_checklist_id,
    taskId: t.task.id,
    action: 'comment.deleted',
    text: `${actorName(ctx)} deleted a comment.`,
    data: { commentId: c.id },
  });
}
