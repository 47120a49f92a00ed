// GET /v3/my-work, list_my_work (spec v3 4.5, 4.6): the acting member's Tasks grid, paged
// with keyset cursors bound to the query and to the member (4.1 rule 11).
import type { Ctx } from '../../context';
import { notFound, validationError } from '../../errors';
import { isGuid, sha256 } from '../../ids';
import { parseSort, type Page } from '../paging';
import { parseAssigneeArg } from './assignee';
import { gridEnv, gridPage, SORT_FIELDS, type GridQuery, type Position, type SortField } from './query';
import { workItems } from './work-items';
import { canonicalStatuses, endOfDay, parseStatusArg, type Judge } from './status';
import { checklistByKey, countChecklistsOfTemplates } from '../../rows/checklists';
import { templateByKey } from '../../rows/templates';
import { nextOpenDue, nextSnoozeEnd } from '../../rows/my-work-grid';

export interface ListMyWorkInput {
  status?: string;
  assignee?: string;
  template?: string;
  checklist?: string;
  includeStandalone?: boolean;
  sort?: string;
  after?: string;
  pageSize?: number;
}

/** Comma-separated keys: each a GUID (400 on `field`), each naming something of the workspace (404). */
function resolveKeys(ctx: Ctx, value: string | undefined, field: string, table: 'templates' | 'checklists', code: string, what: string): number[] | undefined {
  if (value === undefined) return undefined;
  const keys = value.split(',').map((k) => k.trim());
  if (keys.some((k) => !isGuid(k))) throw validationError(`${field} must be comma-separated ${what} keys (GUIDs).`, field);
  const ids = new Set<number>();
  for (const k of keys) {
    const row = table === 'templates' ? templateByKey(ctx.db, ctx.workspace.id, k) : checklistByKey(ctx.db, ctx.workspace.id, k);
    if (!row) throw notFound(code, `No ${what} with key ${k} exists in this workspace.`);
    ids.add(row.id);
  }
  return [...ids].sort((a, b) => a - b);
}

export function parseGridQuery(ctx: Ctx, input: ListMyWorkInput): GridQuery {
  const statuses = parseStatusArg(input.status);
  const assignee = parseAssigneeArg(ctx, input.assignee);
  const sort = parseSort(input.sort, SORT_FIELDS, { field: 'dueDateTime', dir: 'asc' }) as GridQuery['sort'];
  const templateIds = resolveKeys(ctx, input.template, 'template', 'templates', 'TEMPLATE_NOT_FOUND', 'template');
  return {
    statuses: canonicalStatuses(statuses),
    assignee,
    templateIds,
    checklistIds: resolveKeys(ctx, input.checklist, 'checklist', 'checklists', 'CHECKLIST_NOT_FOUND', 'checklist'),
    includeStandalone: input.includeStandalone ?? true,
    sort: { field: sort.field as SortField, dir: sort.dir },
  };
}

const CURSOR_ERROR = 'after is not a cursor this API returned.';

/** A cursor is the last row's position plus a digest of the query, the page size and the member. */
function bindingOf(ctx: Ctx, q: GridQuery, pageSize: number): string {
  return sha256(JSON.stringify([ctx.workspace.id, ctx.actor.member.id, q, pageSize])).slice(0, 16);
}

function encode(p: Position, binding: string): string {
  return Buffer.from(JSON.stringify({ k: p.k, i: p.i, b: binding })).toString('base64url');
}

function decode(after: string, binding: string): Position {
  let c: { k?: unknown; i?: unknown; b?: unknown };
  try {
    c = JSON.parse(Buffer.from(after, 'base64url').toString('utf8'));
  } catch {
    throw validationError(CURSOR_ERROR, 'after');
  }
  if (!c || typeof c !== 'object' || (typeof c.k !== 'number' && typeof c.k !== 'string') || !Number.isSafeInteger(c.i) || typeof c.b !== 'string') {
    throw validationError(CURSOR_ERROR, 'after');
  }
  if (c.b !== binding) {
    throw validationError(
      'after was made for a different query or by a different member: send the same status, assignee, template, checklist, includeStandalone, sort and pageSize, with a key acting as the same member.',
      'after',
    );
  }
  return { k: c.k, i: c.i as number };
}

export function listMyWork(ctx: Ctx, input: ListMyWorkInput): Page<ReturnType<typeof workItems>[number]> {
  return readPage(ctx, input);
}

/**
 * Until when the page holds as time passes: every row's status is judged against now and the end
 * of the day (status.ts), so nothing changes before the day ends, an open task's due date is
 * passed (Overdue from the millisecond after it), or a snooze of the member's ends.
 */
function judgedUntil(ctx: Ctx, j: Judge): number {
  const due = nextOpenDue(ctx.db, ctx.workspace.id, j.now);
  const snooze = nextSnoozeEnd(ctx.db, ctx.actor.member.id, j.now);
  return Math.min(j.endOfDay + 1, due === undefined ? Infinity : due + 1, snooze ?? Infinity);
}

function readPage(ctx: Ctx, input: ListMyWorkInput): Page<ReturnType<typeof workItems>[number]> {
  const q = parseGridQuery(ctx, input);
  const pageSize = input.pageSize ?? 50;
  const binding = bindingOf(ctx, q, pageSize);
  if (q.templateIds) {
    q.templateChecklists = countChecklistsOfTemplates(ctx.db, ctx.workspace.id, q.templateIds);
  }
  const after = input.after === undefined ? undefined : decode(input.after, binding);
  const now = ctx.now();
  const j: Judge = { now, endOfDay: endOfDay(now, ctx.timeZone) };
  ctx.holdsUntil(judgedUntil(ctx, j));
  const { rows, total } = gridPage(ctx, q, gridEnv(ctx, j), after, pageSize + 1);
  const hasMore = rows.length > pageSize;
  const page = rows.slice(0, pageSize);
  return {
    items: workItems(ctx, page.map((r) => r.i), j),
    ...(hasMore ? { nextCursor: encode(page[page.length - 1], binding) } : {}),
    hasMore,
    total,
  };
}
