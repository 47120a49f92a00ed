// The steps of the one request path (src/pipeline/run.ts runs them in order).
import { z } from 'zod';
import { ApiError, actsAsWorkspace, forbidden, validationError } from '../errors';
import type { Emulator } from '../emulator';
import { makeContext, type Ctx } from '../context';
import { countsTowardThrottle, type Principal } from '../domain/auth';
import { addBudgetHeaders, type BudgetState } from '../platform/ratelimit';
import { zoneFor } from '../domain/timezone';
import { BAD_BODY, Reply, isWrite, type Budget, type Operation } from '../operations/define';
import { iso } from '../clock';
import { compiled } from '../contract/compile';
import { V3_RULES, type CallInfo, type Outcome, type Rules } from './types';
import { totalChanges } from '../store/change-signal';
import { rememberedAnswer } from './answer-memo';
import { BEARER_TOKENS } from './bearer';

/** Steps 1-2: key (with the invalid-key throttle) and region; throws ApiError. */
export function authenticate(emu: Emulator, info: CallInfo, rules: Rules = V3_RULES): Principal {
  const now = emu.clock.now();
  if (rules.throttled) emu.throttle.check(info.sourceIp, now);
  let principal: Principal;
  try {
    // An OAuth bearer token stands in for the key on /mcp only (the MCP transport reads it; /v3
    // stays key-only, spec v3 5.1); a key sent beside it wins.
    const tokens = info.bearer && !info.apiKey?.trim() ? emu.slot(BEARER_TOKENS) : undefined;
    principal = tokens ? tokens.resolve(info.bearer!, now) : emu.keys.resolve(info.apiKey, now, info.missingKey);
  } catch (e) {
    if (rules.throttled && e instanceof ApiError && countsTowardThrottle(e.code)) emu.throttle.record(info.sourceIp, now);
    throw e;
  }
  if (info.journal) info.journal.keyName = principal.actor.key.name;
  if (rules.regional && principal.workspace.region !== info.region) {
    const right = emu.baseUrls[principal.workspace.region];
    throw new ApiError(
      421,
      'WRONG_REGION',
      `This API key belongs to a workspace in the ${principal.workspace.region} region. Send the request to ${right}.`,
      { url: right + info.pathAndQuery },
    );
  }
  return principal;
}

/** Step 3: the rate budget. Adds the headers every authenticated answer carries to `headers`. */
export function charge(emu: Emulator, principal: Principal, bucket: Budget, headers: Record<string, string>): void {
  const state: BudgetState = emu.limiter.charge(principal.workspace.id, bucket, emu.clock.now());
  addBudgetHeaders(state, headers);
}

/** A request's context (src/context.ts makes every one, the workers' too). */
export function makeCtx(emu: Emulator, principal: Principal, info: CallInfo): Ctx {
  const header = info.timezoneHeader;
  const profile = principal.actor.kind === 'member' ? principal.actor.member.time_zone : null;
  // A header is resolved now, so a bad one is refused before the operation runs. The profile's
  // zone cannot be refused; it is resolved when a handler first reads it, since the first
  // resolution loads ICU's time zone data (15-50 ms), which an answer that writes no text need not pay.
  const timeZone = header !== null && header !== undefined ? zoneFor(header, profile) : () => zoneFor(null, profile);
  return makeContext(emu, { requestId: info.requestId, workspace: principal.workspace, actor: principal.actor, timeZone, transport: info.transport });
}

/** Turns zod issues into the v3 VALIDATION_ERROR with `field` (spec v3 7). */
export function zodToApiError(err: z.ZodError, input?: unknown): ApiError {
  const issue = err.issues[0];
  const field = fieldName(issue.path);
  let message = issue.message;
  // A custom type message ("must be an integer") would otherwise hide that nothing was sent.
  if (issue.code === 'invalid_type' && (/received undefined/.test(message) || (input !== undefined && valueAt(input, issue.path) === undefined))) {
    message = 'is required';
  }
  return validationError(field ? `${field} ${message}` : message, field || undefined);
}

function valueAt(v: unknown, path: readonly PropertyKey[]): unknown {
  for (const p of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[p];
  }
  return v;
}

export function fieldName(path: readonly PropertyKey[]): string {
  let out = '';
  for (const p of path) {
    if (typeof p === 'number') out += `[${p}]`;
    else out += out ? `.${String(p)}` : String(p);
  }
  return out;
}

/**
 * The synchronous steps after the body is read: time zone, actor kind, input,
 * idempotency, transaction, handler. `raw` is the merged input (path, query,
 * body or tool arguments).
 */
export function runOperation(emu: Emulator, principal: Principal, op: Operation, raw: Record<string, unknown>, info: CallInfo, rules: Rules = V3_RULES): Outcome {
  const ctx = makeCtx(emu, principal, info);
  if (op.actor === 'member' && principal.actor.kind !== 'member') throw actsAsWorkspace();
  if (op.actor === 'admin' && principal.actor.kind === 'member' && !principal.actor.isAdmin) throw forbidden(op.adminRefusal ?? 'Only Administrators may use this route.');
  op.refuseFirst?.(ctx, raw);
  // A body that is not a JSON object, refused now that who may call has been settled (BAD_BODY).
  const badBody = (raw as Record<symbol, unknown>)[BAD_BODY];
  if (badBody) throw badBody;
  // The whole-body input is always present, undefined when nothing was sent: REST without a
  // body and a tool call without that argument reach the same checks (spec v3 4.6 rule 2).
  if (op.bodyAs && !(op.bodyAs in raw)) raw = { ...raw, [op.bodyAs]: undefined };
  const parse = (): Record<string, unknown> => {
    const parsed = compiled(op).inputSchema.safeParse(raw);
    if (!parsed.success) throw zodToApiError(parsed.error, raw);
    return parsed.data as Record<string, unknown>;
  };
  // A read may be answered from memory when its transport's rules say so (the v3 operations over
  // REST, MCP and the console's family; not the legacy routes).
  if (!isWrite(op)) return !rules.remembered ? toOutcome(op, op.handler(ctx, parse())) : rememberedAnswer(ctx, op, raw, info.timezoneHeader ?? '', (c) => toOutcome(op, op.handler(c, parse())));
  const execute = (c: Ctx, input: Record<string, unknown>): Outcome => {
    const before = totalChanges(emu.db);
    const result = emu.db.transaction(() => op.handler(c, input))();
    // Only a write that changed rows wakes the workspace's open console pages.
    if (totalChanges(emu.db) !== before) emu.changes.touch(principal.workspace.id);
    return toOutcome(op, result);
  };
  if (info.idempotencyKey != null && emu.idempotency) {
    const input = parse();
    return emu.idempotency.run(ctx, op, input, info.idempotencyKey, info.idempotencyField ?? 'Idempotency-Key', () => execute(ctx, input));
  }
  // A write that changed nothing answers as a read would, until the database changes (a retried
  // complete), under the same rule as reads.
  if (op.unchangedIsRead && rules.remembered) return rememberedAnswer(ctx, op, raw, info.timezoneHeader ?? '', (c) => execute(c, parse()));
  return execute(ctx, parse());
}

function toOutcome(op: Operation, result: unknown): Outcome {
  if (result instanceof Reply) return { status: result.status, body: result.status === 204 ? undefined : result.body, headers: result.headers };
  const status = op.status ?? 200;
  return { status, body: status === 204 ? undefined : result, headers: {} };
}

export { iso };
