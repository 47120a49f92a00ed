// A member's default view of the Tasks grid (saved view `isDefault`). The app chooses it; v3
// has no route for it, so the emulator's control route PUT /_emulator/my-work/default-view
// sets it for tests (docs/tasks-grid.md). Deleting the view, or losing sight of it, puts the
// member back on the Open tasks core view.
import type { Db } from '../../store/open';
import { notFound, validationError } from '../../errors';
import { coreView, OPEN_TASKS_VIEW } from './core-views';

export function setDefaultView(db: Db, memberId: number, viewKey: string | null): { memberId: number; viewKey: string } {
  const member = db.prepare<[number], { workspace_id: number }>('SELECT workspace_id FROM members WHERE id = ? AND is_anonymous = 0').get(memberId);
  if (!member) throw validationError(`memberId ${memberId} is not a member of any workspace.`, 'memberId');
  if (viewKey === null || (coreView(viewKey) && coreView(viewKey)!.key === OPEN_TASKS_VIEW.key)) {
    db.prepare('DELETE FROM my_work_defaults WHERE member_id = ?').run(memberId);
    return { memberId, viewKey: OPEN_TASKS_VIEW.key };
  }
  const core = coreView(viewKey);
  const saved = core ? undefined : db.prepare<[string, number], { key: string }>('SELECT key FROM saved_views WHERE key = ? COLLATE NOCASE AND workspace_id = ?').get(viewKey, member.workspace_id);
  if (!core && !saved) throw notFound('VIEW_NOT_FOUND', `No saved view with key ${viewKey} exists in member ${memberId}'s workspace.`);
  const key = core ? core.key : saved!.key;
  db.prepare('INSERT OR REPLACE INTO my_work_defaults (member_id, view_key) VALUES (?, ?)').run(memberId, key);
  return { memberId, viewKey: key };
}
