// The five core views of the Tasks grid (spec v3 2.6: shipped first in the list, never
// written). Their definitions are ours (docs/tasks-grid.md): all are the member's own work
// (assignees through groups included), standalone tasks included, in every template.
import { OPEN_STATUSES, STATUSES, type GridStatus } from './status';

export interface ViewDefinition {
  name: string;
  search?: string;
  statuses: GridStatus[];
  allTemplates: boolean;
  /** Template keys. */
  templates: string[];
  includeStandalone: boolean;
  allAssignees: boolean;
  includeUnassigned: boolean;
  assignees: { type: 'TeamMember' | 'Group'; id: number }[];
  /** `field:direction`. */
  sort: string;
  visibleTo: { type: 'TeamMember' | 'Group'; id: number }[];
}

export interface CoreView extends ViewDefinition {
  key: string;
}

const core = (n: number, name: string, statuses: GridStatus[], sort = 'dueDateTime:asc'): CoreView => ({
  key: `70000000-0000-4000-8000-00000000000${n}`,
  name,
  statuses,
  allTemplates: true,
  templates: [],
  includeStandalone: true,
  allAssignees: false,
  includeUnassigned: false,
  assignees: [],
  sort,
  visibleTo: [],
});

export const CORE_VIEWS: CoreView[] = [
  core(1, 'Open tasks', [...OPEN_STATUSES]),
  core(2, 'Due today', ['DueToday']),
  core(3, 'Overdue', ['Overdue']),
  core(4, 'Completed', ['Complete', 'NotApplicable'], 'dueDateTime:desc'),
  core(5, 'All tasks', [...STATUSES]),
];

/** The view a member lands on when they have chosen none, or theirs was deleted (4.6). */
export const OPEN_TASKS_VIEW = CORE_VIEWS[0];

export const coreView = (key: string): CoreView | undefined => CORE_VIEWS.find((v) => v.key.toLowerCase() === key.toLowerCase());
