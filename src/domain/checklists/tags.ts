// A checklist's own tags: GET/POST /v3/checklists/{key}/tags, DELETE ...?name= (spec v3 4.7,
// 4.1 rule 5; EMULATOR.md body {"tags": [...]}). Tags are created on first application and
// removed with their last carrier. Answer: the checklist's tags in name order.
import type { Ctx } from '../../context';
import { actorName, recordActivity } from '../activity';
import { assertCanRead } from '../access/checklists';
import { applyTags, removeTag } from '../tags/apply';
import { findChecklist } from '../checklist-lookup';
import { checklistTags } from './view';

export function listChecklistTags(ctx: Ctx, key: string) {
  const row = findChecklist(ctx, key);
  assertCanRead(ctx, row);
  return { tags: checklistTags(ctx, row.id) };
}

export function addChecklistTags(ctx: Ctx, key: string, names: string[]) {
  const row = findChecklist(ctx, key);
  assertCanRead(ctx, row);
  const before = new Set(checklistTags(ctx, row.id).map((n) => n.toLowerCase()));
  applyTags(ctx.db, ctx.workspace.id, 'checklist', row.id, names, ctx.now());
  const added = checklistTags(ctx, row.id).filter((n) => !before.has(n.toLowerCase()));
  if (added.length) {
    recordActivity(ctx, { checklistId: row.id, action: 'checklist.tagged', text: `${actorName(ctx)} tagged the checklist ${added.map((n) => `"${n}"`).join(', ')}.`, data: { tags: added } });
  }
  return { tags: checklistTags(ctx, row.id) };
}

export function removeChecklistTag(ctx: Ctx, key: string, name: string) {
  const row = findChecklist(ctx, key);
  assertCanRead(ctx, row);
  if (removeTag(ctx.db, ctx.workspace.id, 'checklist', row.id, name)) {
    recordActivity(ctx, { checklistId: row.id, action: 'checklist.untagged', text: `${actorName(ctx)} removed the tag "${name.trim()}" from the checklist.`, data: { tag: name.trim() } });
  }
  return { tags: checklistTags(ctx, row.id) };
}
