// What the campaign aims at: read from the operation table (v3 REST and MCP
// tools) and the legacy route table, so new operations join automatically.
import { z } from 'zod';
import type { Operation } from '../../src/operations/define';
import { isWrite, pathParams } from '../../src/operations/define';
import type { LegacyRoute } from '../../src/legacy/define';

export interface Target {
  /** Name in the report: the operationId, `mcp:<tool>` or `legacy:<METHOD> <path>`. */
  id: string;
  kind: 'rest' | 'mcp' | 'legacy';
  method: string;
  path: string;
  write: boolean;
  op?: Operation;
  legacy?: LegacyRoute;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  schema: Record<string, any>;
  pathNames: string[];
  queryNames: string[];
}

/** Query parameters the legacy routes read (legacy spec 4); the table has no schema. */
const LEGACY_QUERY: Record<string, Record<string, unknown>> = {
  source: { type: 'string' },
  eventType: { type: 'string', enum: ['ALL', 'new_checklist', 'task_completed', 'file_uploaded', 'data_set.record.created', 'data_set.record.updated', 'data_set.record.deleted'] },
  targetUrl: { type: 'string', format: 'uri' },
  templateKey: { type: 'string' },
  taskKey: { type: 'string' },
  taskContentKey: { type: 'string' },
  checklistKey: { type: 'string' },
  subscriptionId: { type: 'string' },
  secret: { type: 'string' },
  checklistName: { type: 'string' },
  status: { type: 'string', enum: ['ALL', 'OPEN', 'COMPLETE', 'INPROGRESS', 'SCHEDULED'] },
  pageSize: { type: 'integer', minimum: 1, maximum: 10 },
  pageNumber: { type: 'integer', minimum: 1 },
  force: { type: 'boolean' },
};

export function buildTargets(ops: Operation[], legacyRoutes: LegacyRoute[]): Target[] {
  const out: Target[] = [];
  for (const op of ops) {
    const schema = z.toJSONSchema(z.object(op.input), { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
    const base = { method: op.method, path: op.path, write: isWrite(op), op, schema, pathNames: pathParams(op.path), queryNames: [...(op.query ?? [])] };
    out.push({ id: op.id, kind: 'rest', ...base });
    if (op.tool) out.push({ id: `mcp:${op.tool}`, kind: 'mcp', ...base });
  }
  for (const r of legacyRoutes) {
    out.push({
      id: `legacy:${r.method} ${r.path}`,
      kind: 'legacy',
      method: r.method,
      path: r.path,
      write: r.method !== 'GET',
      legacy: r,
      schema: { type: 'object', properties: LEGACY_QUERY },
      pathNames: [],
      queryNames: Object.keys(LEGACY_QUERY),
    });
  }
  return out;
}
