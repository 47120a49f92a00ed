// Every refusal an operation can give: its own (declared in the table) plus the
// pipeline's, derived from the operation's other facts so nobody restates them.
import type { z } from 'zod';
import { isWrite, type Operation, type Refusal } from '../operations/define';

/** Refusals of the shared request path (spec v3 4.1, 5, 7, 8) that any v3 operation can give. */
const ALWAYS: Refusal[] = [
  '400 VALIDATION_ERROR', // bad X-SVC-Timezone on any route; bad input
  '401 MISSING_API_KEY',
  '401 INVALID_API_KEY',
  '401 API_KEY_REVOKED',
  '401 API_KEY_EXPIRED',
  '401 API_KEY_ACTOR_UNAVAILABLE',
  '421 WRONG_REGION',
  '429 RATE_LIMIT_EXCEEDED',
];

/**
 * The refusals any call may give whatever the tool (the path's own, and a write's body limit
 * and lock wait): MCP names them once, in the server's instructions, not in every tool (docs/mcp.md).
 */
export const SHARED_REFUSALS: ReadonlySet<string> = new Set<string>([...ALWAYS, '413 PAYLOAD_TOO_LARGE', '503 DATABASE_BUSY']);

export function derivedRefusals(op: Operation): Refusal[] {
  const out = [...ALWAYS];
  if (op.method !== 'GET') out.push('413 PAYLOAD_TOO_LARGE');
  if (isWrite(op)) out.push('409 CONFLICT'); // Idempotency-Key reused or still running (4.1 rule 12)
  if (isWrite(op)) out.push('503 DATABASE_BUSY'); // another process held the file's write lock too long (docs/reliability.md)
  if (isWrite(op)) out.push('503 STORAGE_FULL', '503 STORAGE_READ_ONLY'); // the disk is full, the file read-only (docs/reliability.md 10)
  out.push('503 STORAGE_IO_ERROR'); // the operating system failed a read or a write
  if (op.actor === 'member') out.push('403 API_KEY_ACTS_AS_WORKSPACE');
  if (op.actor === 'admin') out.push('403 FORBIDDEN');
  return out;
}

/** All refusals of an operation, by status (kept by its compiled form, src/contract/compile.ts). */
export function refusalsFor(op: Operation): Map<number, Set<string>> {
  const m = new Map<number, Set<string>>();
  for (const r of [...derivedRefusals(op), ...(op.refusals ?? [])]) {
    const sp = r.indexOf(' ');
    const status = Number(r.slice(0, sp));
    const code = r.slice(sp + 1);
    if (!m.has(status)) m.set(status, new Set());
    m.get(status)!.add(code);
  }
  return m;
}

/**
 * What the operation's refusals carry beyond the envelope's own members, merged by status: the
 * OpenAPI error response of a status and its MCP tool's output schema declare them (optional,
 * since another refusal of the same status does not carry them), and the self-check holds
 * every refusal body to that declaration (src/contract/check.ts).
 */
export function refusalDetailsFor(op: Operation): Map<number, z.ZodRawShape> {
  const m = new Map<number, z.ZodRawShape>();
  for (const [refusal, shape] of Object.entries(op.refusalDetails?.() ?? {})) {
    const status = Number(refusal.slice(0, refusal.indexOf(' ')));
    const optional = Object.fromEntries(Object.entries(shape ?? {}).map(([k, s]) => [k, (s as z.ZodType).optional()]));
    m.set(status, { ...(m.get(status) ?? {}), ...optional });
  }
  return m;
}

/** Every status's details together: an MCP tool's one error envelope holds them all. */
export const allRefusalDetails = (details: Map<number, z.ZodRawShape>): z.ZodRawShape => Object.assign({}, ...details.values()) as z.ZodRawShape;
