// The legacy route table: every /api/* route, declared once per area. Add an
// area's list here (one import line + one spread), like src/operations/index.ts.
import type { LegacyRoute } from '../define';
import { webhookLegacyRoutes } from './webhooks';
import { checklistLegacyRoutes } from './checklists';
import { checklistSearchLegacyRoutes } from './checklist-search';
import { checklistDeleteLegacyRoutes } from './checklist-delete';
import { authenticationLegacyRoutes } from './authentication';
import { taskLegacyRoutes } from './tasks';
import { tagLegacyRoutes } from './tags';
import { teamLegacyRoutes } from './team';
import { templateLegacyRoutes } from './templates';
import { analyticsLegacyRoutes } from './analytics';
import { dataSetLegacyRoutes } from './datasets';

export const legacyRoutes: LegacyRoute[] = [
  ...webhookLegacyRoutes,
  ...authenticationLegacyRoutes,
  ...checklistLegacyRoutes,
  ...checklistSearchLegacyRoutes,
  ...checklistDeleteLegacyRoutes,
  ...taskLegacyRoutes,
  ...tagLegacyRoutes,
  ...teamLegacyRoutes,
  ...templateLegacyRoutes,
  ...analyticsLegacyRoutes,
  ...dataSetLegacyRoutes,
];
