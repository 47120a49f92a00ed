// The legacy route table: every /api/* route, declared once per area. Add an
// area's list here (one import line + one spread), like src/operations/index.ts.
import type { LegacyRoute } from '../define';
import { webhookLegacyRoutes } from './webhooks';
import { checklistLegacyRoutes } from './checklists';
import { dataSetLegacyRoutes } from './datasets';

export const legacyRoutes: LegacyRoute[] = [
  ...webhookLegacyRoutes,
  ...checklistLegacyRoutes,
  ...dataSetLegacyRoutes,
];
