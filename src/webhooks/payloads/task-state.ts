// Halted and hidden flags of tasks in payloads (spec v3 2.4, 6.1 `taskIsCurrentlyHalted`,
// `taskIsCurrentlyHidden`). One rule, one place: the tasks area's evaluator
// (src/domain/tasks/evaluate.ts), read the same way as the REST task views
// (src/domain/tasks/views.ts `taskSummary`), so a payload and GET .../tasks agree.
import type { Db } from '../../store/open';
import type { TemplateDocument } from '../../rows/template-document';
import type { TaskRow } from '../../rows/tasks';
import { EMPTY_STATE, evaluateChecklist, type ChecklistState } from '../../domain/tasks/evaluate';

export type { ChecklistState };
export { EMPTY_STATE };

/** The evaluated state of a checklist (empty when its template version cannot be read). */
export function checklistState(db: Db, checklistId: number, doc: TemplateDocument | undefined): ChecklistState {
  return doc ? evaluateChecklist({ db }, checklistId, doc) : EMPTY_STATE;
}

type FlagRow = Pick<TaskRow, 'key' | 'is_heading'>;

/** As `isCurrentlyHalted` in the REST views: headings are never halted. */
export const isHalted = (s: ChecklistState, t: FlagRow): boolean => t.is_heading !== 1 && s.haltedTasks.has(t.key.toLowerCase());

/** As `isCurrentlyHidden` in the REST views. */
export const isHidden = (s: ChecklistState, t: FlagRow): boolean => s.hiddenTasks.has(t.key.toLowerCase());
