// Tags are created on first application and removed with their last carrier (spec v3 4.1 rule 5).
import type { Db } from '../../store/open';
import { newGuid } from '../../ids';

export type TagTarget = 'checklist' | 'task' | 'template';

export function applyTags(db: Db, workspaceId: number, targetType: TagTarget, targetId: number, names: string[], now: number): void {
  for (const raw of names) {
    const name = raw.trim();
    if (!name) continue;
    let tag = db.prepare<[number, string], { id: number }>('SELECT id FROM tags WHERE workspace_id = ? AND name = ? COLLATE NOCASE').get(workspaceId, name);
    if (!tag) {
      const id = Number(db.prepare('INSERT INTO tags (key, workspace_id, name, created_at) VALUES (?, ?, ?, ?)').run(newGuid(), workspaceId, name, now).lastInsertRowid);
      tag = { id };
    }
    db.prepare('INSERT OR IGNORE INTO tag_assignments (key, tag_id, target_type, target_id) VALUES (?, ?, ?, ?)').run(newGuid(), tag.id, targetType, targetId);
  }
}

export function removeTag(db: Db, workspaceId: number, targetType: TagTarget, targetId: number, name: string): boolean {
  const tag = db.prepare<[number, string], { id: number; other_count: number }>('SELECT id, other_count FROM tags WHERE workspace_id = ? AND name = ? COLLATE NOCASE').get(workspaceId, name.trim());
  if (!tag) return false;
  const r = db.prepare('DELETE FROM tag_assignments WHERE tag_id = ? AND target_type = ? AND target_id = ?').run(tag.id, targetType, targetId);
  const left = db.prepare<[number], { n: number }>('SELECT COUNT(*) AS n FROM tag_assignments WHERE tag_id = ?').get(tag.id)!.n;
  if (left === 0 && tag.other_count === 0) db.prepare('DELETE FROM tags WHERE id = ?').run(tag.id);
  return r.changes > 0;
}
