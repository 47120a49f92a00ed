// Saved views of the Tasks grid (spec v3 2.6 saved view, 4.5, 4.6): the five core views,
// then the views the member may use. Stored in saved_views (type, JSON definition).
// Who sees and changes what (docs/tasks-grid.md): Private views are their author's; Team
// views everyone's; UsersGroups views their author's and whoever visibleTo names (a group:
// whoever is in it). Administrators see and change every view. A member changes the Private
// and UsersGroups views they wrote. Core views are never written.
import type { Ctx } from '../../context';
import { forbidden, notFound } from '../../errors';
import { newGuid } from '../../ids';
import { memberGroupIds } from '../access/checklists';
import { memberById, fullName, groupById } from '../../rows/people';
import { templateNameByKey } from '../../rows/templates';
import {
  defaultViewKey, deleteSavedView, insertSavedView, savedViewByExactKey, savedViewByKey, savedViewsOfWorkspace, updateSavedView, type SavedViewRow,
} from '../../rows/saved-views';
import { templateUrl } from '../urls';
import { CORE_VIEWS, OPEN_TASKS_VIEW, coreView, type ViewDefinition } from './core-views';
import { canonicalStatuses } from './status';
import { definitionOf, type ViewInput, type ViewType } from './view-input';

export type { ViewType };


const viewNotFound = (key: string) => notFound('VIEW_NOT_FOUND', `No saved view with key ${key} exists that you may see.`);

function defaultKey(ctx: Ctx): string {
  const viewKey = defaultViewKey(ctx.db, ctx.actor.member.id);
  if (viewKey === undefined) return OPEN_TASKS_VIEW.key;
  if (coreView(viewKey)) return viewKey.toLowerCase();
  const saved = savedViewByExactKey(ctx.db, ctx.workspace.id, viewKey);
  return saved && mayRead(ctx, saved) ? saved.key : OPEN_TASKS_VIEW.key;
}

function mayRead(ctx: Ctx, v: SavedViewRow): boolean {
  // Administrators may change any view (4.6), so they see every one.
  if (ctx.actor.isAdmin || v.created_by === ctx.actor.member.id || v.type === 'Team') return true;
  if (v.type !== 'UsersGroups') return false;
  const groups = new Set(memberGroupIds(ctx));
  const def = JSON.parse(v.data) as ViewDefinition;
  return def.visibleTo.some((a) => (a.type === 'TeamMember' ? a.id === ctx.actor.member.id : groups.has(a.id)));
}

function mayChange(ctx: Ctx, v: SavedViewRow): boolean {
  if (ctx.actor.isAdmin) return true;
  return v.created_by === ctx.actor.member.id && (v.type === 'Private' || v.type === 'UsersGroups');
}

function assigneeView(ctx: Ctx, a: { type: 'TeamMember' | 'Group'; id: number }) {
  if (a.type === 'Group') {
    const g = groupById(ctx.db, a.id);
    return { id: a.id, type: a.type, name: g?.name };
  }
  const m = memberById(ctx.db, a.id);
  return { id: a.id, type: a.type, name: m ? fullName(m) : undefined };
}

function templateEntry(ctx: Ctx, key: string) {
  const t = templateNameByKey(ctx.db, ctx.workspace.id, key);
  return { key, name: t?.name ?? '', url: templateUrl(ctx, key) };
}

function createdBy(ctx: Ctx, memberId: number | null) {
  if (memberId === null) return undefined;
  const m = memberById(ctx.db, memberId);
  if (!m) return undefined;
  return { id: m.id, name: fullName(m) ?? m.email ?? '', email: m.is_removed ? undefined : (m.email ?? undefined) };
}

function render(ctx: Ctx, key: string, type: ViewType | 'Core', def: ViewDefinition, extra: { isDefault: boolean; canEdit: boolean; createdBy?: unknown }) {
  return {
    key,
    name: def.name,
    type,
    isCore: type === 'Core',
    isDefault: extra.isDefault,
    canEdit: extra.canEdit,
    createdBy: extra.createdBy,
    search: def.search,
    statuses: canonicalStatuses(def.statuses),
    allTemplates: def.allTemplates,
    templates: def.templates.map((k) => templateEntry(ctx, k)),
    includeStandalone: def.includeStandalone,
    allAssignees: def.allAssignees,
    includeUnassigned: def.includeUnassigned,
    assignees: def.assignees.map((a) => assigneeView(ctx, a)),
    sort: def.sort,
    visibleTo: def.visibleTo.map((a) => assigneeView(ctx, a)),
  };
}

export type SavedView = ReturnType<typeof render>;

const renderSaved = (ctx: Ctx, v: SavedViewRow, dflt = defaultKey(ctx)) =>
  render(ctx, v.key, v.type, JSON.parse(v.data) as ViewDefinition, { isDefault: v.key === dflt, canEdit: mayChange(ctx, v), createdBy: createdBy(ctx, v.created_by) });

/** GET /v3/my-work/views: the core views, then the member's own and shared views by name. */
export function listViews(ctx: Ctx): SavedView[] {
  const dflt = defaultKey(ctx);
  const core = CORE_VIEWS.map((v) => render(ctx, v.key, 'Core', v, { isDefault: v.key === dflt, canEdit: false }));
  const saved = savedViewsOfWorkspace(ctx.db, ctx.workspace.id)
    .filter((v) => mayRead(ctx, v))
    .map((v) => renderSaved(ctx, v, dflt));
  return [...core, ...saved];
}

function findSaved(ctx: Ctx, key: string): SavedViewRow {
  const v = savedViewByKey(ctx.db, ctx.workspace.id, key);
  if (!v || !mayRead(ctx, v)) throw viewNotFound(key);
  return v;
}

export function getView(ctx: Ctx, key: string): SavedView {
  const c = coreView(key);
  if (c) return render(ctx, c.key, 'Core', c, { isDefault: c.key === defaultKey(ctx), canEdit: false });
  return renderSaved(ctx, findSaved(ctx, key));
}

/** Team and UsersGroups views need an Administrator (4.6). */
function assertMayUseType(ctx: Ctx, type: ViewType): void {
  if (type !== 'Private' && !ctx.actor.isAdmin) {
    throw forbidden(`Only Administrators may save ${type} views: anyone may save a Private view. An Administrator can save this view for you, or send type Private.`);
  }
}

export function createView(ctx: Ctx, input: ViewInput): SavedView {
  const { type, def } = definitionOf(ctx, input, (t) => assertMayUseType(ctx, t));
  const key = newGuid();
  insertSavedView(ctx.db, { key, workspace_id: ctx.workspace.id, created_by: ctx.actor.member.id, type, data: JSON.stringify(def), created_at: ctx.now() });
  return renderSaved(ctx, findSaved(ctx, key));
}

function assertWritable(ctx: Ctx, key: string): SavedViewRow {
  if (coreView(key)) throw forbidden('Core views cannot be changed or deleted. Save a view of your own with create_my_work_view.');
  const v = findSaved(ctx, key);
  if (!mayChange(ctx, v)) {
    throw forbidden(
      v.type === 'Team'
        ? 'Only Administrators may change or delete Team views. An Administrator can change this view for you.'
        : 'You may change or delete only the Private and UsersGroups views you created. An Administrator can change this view for you.',
    );
  }
  return v;
}

/** PUT: a replacement; every omitted argument returns to its default; the author is kept. */
export function updateView(ctx: Ctx, key: string, input: ViewInput): SavedView {
  const { type, def } = definitionOf(ctx, input, (t) => {
    assertWritable(ctx, key);
    assertMayUseType(ctx, t);
  });
  const v = findSaved(ctx, key);
  updateSavedView(ctx.db, v.id, type, JSON.stringify(def));
  return renderSaved(ctx, findSaved(ctx, key));
}

/** DELETE: changes no task; a member whose default it was lands on the open-tasks core view. */
export function deleteView(ctx: Ctx, key: string): void {
  const v = assertWritable(ctx, key);
  deleteSavedView(ctx.db, v);
}
