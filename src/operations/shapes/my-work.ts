// Response shapes of the Tasks grid (spec v3 2.6 work item, snooze result, saved view; the
// nested shapes the spec does not show are ours: docs/tasks-grid.md).
import { z } from 'zod';
import { lazy } from '../../lazy';

const assignee = lazy(() => z.strictObject({ id: z.number().int(), type: z.enum(['TeamMember', 'Group']), name: z.string().optional() }));

const templateRef = lazy(() => z.strictObject({
  key: z.guid(),
  name: z.string(),
  url: z.string(),
  version: z.number().int(),
  description: z.string().optional(),
  createdDateTime: z.string().optional(),
}));

export const workItem = lazy(() => z.strictObject({
  key: z.guid(),
  name: z.string(),
  status: z.enum(['Incomplete', 'Complete', 'NotApplicable', 'DueToday', 'Overdue', 'Halted', 'DueInFuture', 'Snoozed']),
  isStandalone: z.boolean(),
  assignees: z.array(assignee()),
  isAssignedExclusively: z.boolean(),
  isAssignedToActor: z.boolean(),
  canActorAccess: z.boolean(),
  tags: z.array(z.string()),
  commentCount: z.number().int(),
  url: z.string(),
  dueDateTime: z.string().optional(),
  completedDateTime: z.string().optional(),
  notApplicableDateTime: z.string().optional(),
  snoozedUntilDateTime: z.string().optional(),
  checklist: z.strictObject({ key: z.guid(), name: z.string(), url: z.string(), template: templateRef() }).optional(),
}));

export const workPage = lazy(() => z.strictObject({
  items: z.array(workItem()),
  nextCursor: z.string().optional(),
  hasMore: z.boolean(),
  total: z.number().int(),
}));

const snoozeEntry = lazy(() => z.strictObject({
  key: z.guid(),
  checklistKey: z.guid().optional(),
  name: z.string(),
  isStandalone: z.boolean(),
  isSnoozed: z.boolean(),
}));

export const snoozeResult = lazy(() => z.strictObject({ snoozedUntil: z.string(), tasks: z.array(snoozeEntry()) }));
export const endSnoozeResult = lazy(() => z.strictObject({ tasks: z.array(snoozeEntry()) }));

export const savedView = lazy(() => z.strictObject({
  key: z.guid(),
  name: z.string(),
  type: z.enum(['Core', 'Private', 'UsersGroups', 'Team']),
  isCore: z.boolean(),
  isDefault: z.boolean(),
  canEdit: z.boolean(),
  createdBy: z.strictObject({ id: z.number().int(), name: z.string(), email: z.string().optional() }).optional(),
  search: z.string().optional(),
  statuses: z.array(z.string()),
  allTemplates: z.boolean(),
  templates: z.array(z.strictObject({ key: z.guid(), name: z.string(), url: z.string() })),
  includeStandalone: z.boolean(),
  allAssignees: z.boolean(),
  includeUnassigned: z.boolean(),
  assignees: z.array(assignee()),
  sort: z.string(),
  visibleTo: z.array(assignee()),
}));
