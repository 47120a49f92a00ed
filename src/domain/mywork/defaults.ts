// A member's default view of the Tasks grid (saved view `isDefault`). The app chooses it; v3
// has no route for it, so the emulator's control route PUT /_emulator/my-work/default-view
// sets it for tests (docs/tasks-grid.md). Deleting the view, or losing sight of it, puts the
// member back on the Open tasks core view.
import type { Db } from '../../store/open';
import { notFound, validationError } from '../../errors';
import { coreView, OPEN_TASKS_VIEW } from './core-views';
import { memberById } from '../../rows/people';
import { savedViewByKey, setDefaultViewKey } from '../../rows/saved-views';

export function setDefaultView(db: Db, memberId: number, viewKey: string | null): { memberId: number; viewKey: string } {
  const member = memberById(db, memberId);
  if (!member || member.is_anonymous) throw validationError(`memberId ${memberId} is not a member of any workspace.`, 'memberId');
  if (viewKey === null || (coreView(viewKey) && coreView(viewKey)!.key === OPEN_TASKS_VIEW.key)) {
    setDefaultViewKey(db, memberId, null);
    return { memberId, viewKey: OPEN_TASKS_VIEW.key };
  }
  const core = coreView(viewKey);
  const saved = core ? undefined : savedViewByKey(db, member.workspace_id, viewKey);
  if (!core && !saved) throw notFound('VIEW_NOT_FOUND', `No saved view with key ${viewKey} exists in member ${memberId}'s workspace.`);
  const key = core ? core.key : saved!.key;
  setDefaultViewKey(db, memberId, key);
  return { memberId, viewKey: key };
}
