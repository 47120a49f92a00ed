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
  schema: Record<string, any>;
  pathNames: string[];
  queryNames: string[];
  /** Legacy routes: the names that travel in the JSON body (the rest go in the query). */
  bodyNames?: string[];
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
  createIfNotExists: { type: 'boolean' },
  tag: { type: 'string' },
  checklistId: { type: 'integer' },
  taskId: { type: 'integer' },
  isShared: { type: 'boolean' },
  assigneeId: { type: 'integer' },
  assigneeType: { type: 'integer', enum: [1, 2] },
  includeTeamMemberGroups: { type: 'boolean' },
  includeCompletedTasks: { type: 'boolean' },
  name: { type: 'string' },
  tagKey: { type: 'string' },
  nameContains: { type: 'string' },
  contentType: { type: 'string', enum: ['ALL', 'ALLINPUT', 'ShortText', 'DropDown', 'FileUpload', 'Text', 'Signature'] },
  periodStartDate: { type: 'string', enum: ['2026-01-01', '2026-03-01', '2030-01-01', '2026-13-01'] },
  periodEndDate: { type: 'string', enum: ['2026-12-31', '2025-01-01', 'today'] },
};

const int = { type: 'integer' };
const guid = { type: 'string' };
const bool = { type: 'boolean' };
const str = { type: 'string' };
const obj = (properties: Record<string, unknown>, required = Object.keys(properties)) => ({ type: 'object', properties, required });
const tagAssignment = obj({ tagKey: guid, assignmentKey: guid, assignmentType: { type: 'integer', enum: [1, 3] }, parentKey: guid }, ['tagKey', 'assignmentKey', 'assignmentType']);

/** JSON bodies of the legacy routes that take one (legacy spec 4.1-4.3), by `METHOD path`. */
const LEGACY_BODY: Record<string, Record<string, unknown>> = {
  'POST /api/checklist/create-many': obj({ templateKey: guid, checklistNames: { type: 'array', items: str, minItems: 1 } }),
  'POST /api/checklist/create-with-parameters': obj({ templateKey: guid, checklistName: str, parameters: { type: 'array', items: obj({ parameterName: str, parameterValue: str }) } }, ['templateKey', 'checklistName']),
  'DELETE /api/checklist/delete-many': obj({ checklistIds: { type: 'array', items: int }, templateKeys: { type: 'array', items: guid }, checklistStatus: { type: 'string', enum: ['ALL', 'INPROGRESS', 'COMPLETE', 'SCHEDULED', 'DONE'] } }, []),
  'PUT /api/task/status': obj({ taskId: int, status: { type: 'string', enum: ['Complete', 'Incomplete', 'NotApplicable', 'Done'] }, modifiedByUserID: int }),
  'PUT /api/task/assignments': obj({ taskId: int, assignees: { type: 'array', items: obj({ assigneeId: int, assigneeType: { type: 'integer', enum: [1, 2] } }) }, isAssignedExclusively: bool }),
  'POST /api/task/assign-by-name': obj({ taskId: int, assigneeNames: { type: 'array', items: { type: 'string', enum: ['Mia Member', 'Operations', 'ada@acme.test', 'Alex Kim', 'nobody'] } }, isAssignedExclusively: bool, deleteExistingAssignees: bool }),
  'POST /api/task/comment': obj({ taskId: int, commentHtml: str, createdByUserID: int }),
  'PUT /api/task/update-task-content': obj({ taskContentID: int, contentID: int, key: guid, contentType: { type: 'string', enum: ['ShortText', 'LongText', 'DropDown', 'MultiChoice', 'Date', 'FileUpload', 'Text', 'Signature'] }, name: str, value: {} }),
  'POST /api/tag/assignment': tagAssignment,
  'DELETE /api/tag/assignment': tagAssignment,
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
    const body = LEGACY_BODY[`${r.method} ${r.path}`] as { properties: Record<string, unknown>; required: string[] } | undefined;
    out.push({
      id: `legacy:${r.method} ${r.path}`,
      kind: 'legacy',
      method: r.method,
      path: r.path,
      write: r.method !== 'GET',
      legacy: r,
      schema: body ? { type: 'object', properties: { ...body.properties }, required: body.required } : { type: 'object', properties: LEGACY_QUERY },
      pathNames: [],
      queryNames: body ? [] : Object.keys(LEGACY_QUERY),
      bodyNames: body ? Object.keys(body.properties) : undefined,
    });
  }
  return out;
}
