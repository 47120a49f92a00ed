// Injected faults (docs/faults.md): rules that make matching calls fail the way the
// hosted service can fail (a 500, a 503, a 429, a slow answer, a dropped
// connection). Off unless a rule is added; kept in memory; cleared by reset.
import { z } from 'zod';
import { validationError } from '../errors';
import { lazy } from '../lazy';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', '*'] as const;

export const faultRuleInput = lazy(() => z
  .strictObject({
    method: z
      .string({ error: 'must be a string' })
      .transform((m) => m.toUpperCase())
      .pipe(z.enum(METHODS, { error: `must be one of ${METHODS.join(', ')}` }))
      .optional()
      .describe('HTTP method to match (path rules); default any.'),
    path: z
      .string({ error: 'must be a string' })
      .regex(/^\/[^\s?#]*$/, 'must be a path starting with / (no query): * matches one segment, ** any rest, :name one segment')
      .optional()
      .describe('Path pattern, e.g. /v3/checklists/*/tasks or /v3/**.'),
    tool: z.string({ error: 'must be a string' }).regex(/^[a-z][a-z0-9_]*$/, 'must be an MCP tool name such as get_member').optional().describe('MCP tool name (tools/call over /mcp).'),
    region: z.enum(['US', 'EU'], { error: 'must be US or EU' }).optional().describe('Only calls to this regional address.'),
    status: z.number({ error: 'must be a number' }).int('must be a whole number').min(400, 'must be from 400 to 599').max(599, 'must be from 400 to 599').optional().describe('Answer this status in the v3 error envelope.'),
    code: z.string().regex(/^[A-Z][A-Z0-9_]*$/, 'must be an error code in capitals such as SERVICE_UNAVAILABLE').optional().describe('Error code; default by status.'),
    message: z.string().min(1).max(500).optional().describe('Error message; default by status.'),
    retryAfter: z.number({ error: 'must be a number' }).int('must be a whole number of seconds').min(0, 'must not be negative').max(86_400, 'must be at most 86400').optional().describe('Retry-After seconds (429, 503).'),
    bucket: z.enum(['standard', 'cheap'], { error: 'must be standard or cheap' }).optional().describe('429 only: the X-RateLimit-Bucket.'),
    delayMs: z.number({ error: 'must be a number' }).finite('must be a finite number').min(0, 'must not be negative').max(600_000, 'must be at most 600000 (10 minutes)').optional().describe('Wait this long (real time) before answering.'),
    drop: z.boolean({ error: 'must be true or false' }).optional().describe('Close the connection without an answer.'),
    times: z.number({ error: 'must be a number' }).int('must be a whole number').min(1, 'must be 1 or more').optional().describe('Only the next N matching calls; default every call until removed.'),
    probability: z.number({ error: 'must be a number' }).min(0, 'must be from 0 to 1').max(1, 'must be from 0 to 1').optional().describe('Chance that a matching call is faulted.'),
    seed: z.number({ error: 'must be a number' }).int('must be a whole number').min(0, 'must not be negative').max(2 ** 32 - 1, 'must be below 2^32').optional().describe('Seed of the probability draws (same seed, same sequence).'),
  })
  .describe('A fault rule.'));

export type FaultRuleInput = z.input<ReturnType<typeof faultRuleInput>>;
type Parsed = z.output<ReturnType<typeof faultRuleInput>>;

export interface FaultRule extends Parsed {
  id: string;
  /** Calls this rule has faulted so far. */
  hits: number;
  /** Left of `times`. */
  remaining?: number;
}

export type FaultKind = 'status' | 'delay' | 'drop';

export function kindOf(r: Parsed): FaultKind {
  return r.drop ? 'drop' : r.status !== undefined ? 'status' : 'delay';
}

/** Cross-field checks zod's shape cannot say; throws 400 VALIDATION_ERROR with `field`. */
export function checkRule(r: Parsed): void {
  if ((r.path === undefined) === (r.tool === undefined)) throw validationError('Send exactly one of path (a path pattern) or tool (an MCP tool name).', r.path === undefined ? 'path' : 'tool');
  if (r.tool !== undefined && r.method !== undefined) throw validationError('method applies to path rules; a tool rule matches tools/call of that tool.', 'method');
  if (r.status === undefined && r.delayMs === undefined && !r.drop) throw validationError('Say what to do: status (400-599), delayMs, or drop: true.', 'status');
  if (r.drop && r.status !== undefined) throw validationError('A dropped connection has no status: send drop or status, not both.', 'drop');
  if (r.retryAfter !== undefined && r.status !== 429 && r.status !== 503) throw validationError('retryAfter goes with status 429 or 503.', 'retryAfter');
  if (r.bucket !== undefined && r.status !== 429) throw validationError('bucket goes with status 429.', 'bucket');
  if ((r.code !== undefined || r.message !== undefined) && r.status === undefined) throw validationError('code and message go with status.', r.code !== undefined ? 'code' : 'message');
  if (r.seed !== undefined && r.probability === undefined) throw validationError('seed goes with probability.', 'seed');
}

/** `*` one segment, `**` anything after, `:name` one segment; case-insensitive like the routes. */
export function pathMatcher(pattern: string): RegExp {
  const parts = pattern.replace(/\/+$/, '').split('/').map((seg) => {
    if (seg === '**') return '.*';
    if (seg === '*' || /^:\w+$/.test(seg)) return '[^/]+';
    return seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\\\*/g, '[^/]*');
  });
  return new RegExp(`^${parts.join('/').replace(/\/\.\*$/, '(?:/.*)?')}/?$`, 'i');
}

