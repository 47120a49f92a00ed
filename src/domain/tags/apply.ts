// Tags are created on first application and removed with their last carrier (spec v3 4.1 rule 5).
import type { Db } from '../../store/open';
import { newGuid } from '../../ids';
import { assignTag, carrierCount, deleteTagRow, insertTag, tagByName, unassignTag, type TagTarget } from '../../rows/tags';

export type { TagTarget };

export function applyTags(db: Db, workspaceId: number, targetType: TagTarget, targetId: number, names: string[], now: number): void {
  for (const raw of names) {
    const name = raw.trim();
    if (!name) continue;
    const id = tagByName(db, workspaceId, name)?.id ?? insertTag(db, { key: newGuid(), workspaceId, name, now });
    assignTag(db, newGuid(), id, targetType, targetId);
  }
}

export function removeTag(db: Db, workspaceId: number, targetType: TagTarget, targetId: number, name: string): boolean {
  const tag = tagByName(db, workspaceId, name.trim());
  if (!tag) return false;
  const removed = unassignTag(db, tag.id, targetType, targetId);
  if (carrierCount(db, tag.id) === 0 && tag.other_count === 0) deleteTagRow(db, tag.id);
  return removed;
}
