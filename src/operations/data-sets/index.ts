// Data Sets over v3 (spec v3 4.7 paths; 5.4-5.6, 5.9 permissions; 9: updates are PATCH).
// The store is the legacy API's (src/domain/datasets); bodies and answers the spec does
// not show are designed in docs/data-sets.md. The spec names no Data Set tools. One file
// per sub-resource; their order is the route order (records/bulk before records/:recordKey).
import type { Ctx } from '../../context';
import { withFacts, type Operation } from '../define';
import { refuseSystemWrite } from '../../domain/datasets/access';
import { connectionOperations } from './connections';
import { csvOperations } from './csv';
import { fieldOperations } from './fields';
import { recordOperations } from './records';
import { setOperations } from './sets';
import { viewOperations } from './views';

const operations: Operation[] = [...setOperations, ...fieldOperations, ...recordOperations, ...viewOperations, ...csvOperations, ...connectionOperations];

/** Every write under a Data Set refuses a system set 403 before its body is checked (legacy 3, 7; docs/data-sets.md). */
export const dataSetOperations = operations.map((op) =>
  op.method !== 'GET' && op.path.includes(':dataSetKey') ? withFacts(op, { refuseFirst: (ctx: Ctx, raw: Record<string, unknown>) => refuseSystemWrite(ctx.db, raw.dataSetKey) }) : op,
);
