// The one request path. Every transport (v3 REST, MCP over HTTP, MCP stdio, the
// legacy API) hands a Call to runCall and writes what comes back; none of them
// strings the steps together itself:
//   key → region → budget → size-limited body → time zone → actor → input
//   → idempotency → transaction → handler
// (see docs/architecture.md for why the actor comes before input validation).
import { noteOperation } from '../platform/journal';
import { ApiError } from '../errors';
import type { Emulator } from '../emulator';
import type { Principal } from '../domain/auth';
import type { Budget, Operation } from '../operations/define';
import { authenticate, charge, runOperation } from './steps';
import { V3_RULES, type Answer, type CallInfo, type Rules } from './types';

export interface Call {
  op: Operation;
  info: CallInfo;
  /**
   * The raw input, read by the transport: path and query strings and the body (read
   * within `maxBytes`), or an MCP tool's arguments. Runs after key, region and budget.
   */
  readInput(maxBytes: number): Promise<Record<string, unknown>> | Record<string, unknown>;
  /** The budget to charge when not the operation's own (an MCP resource read is cheap, spec v3 8). */
  budget?: Budget;
  /** Key, region and budget already settled for this call (MCP over HTTP settles them once per HTTP request: settleRequest). */
  settled?: Principal;
  /** The MCP tool this call was made as (a tools/call, not a resource read through the operation), for the journal. */
  tool?: string;
}

/**
 * Runs a call. The answer comes back synchronously when the input did (a read without a body,
 * a tool's arguments): no promise, no turn of the event loop between the request and its answer
 * (measured: a node:http answer written a microtask later cost ~7 us of server CPU more).
 */
export function runCall(emu: Emulator, call: Call, rules: Rules = V3_RULES): Answer | Promise<Answer> {
  const { op, info } = call;
  const headers: Record<string, string> = { 'X-Request-Id': info.requestId };
  const contract = rules.contract ? emu.contract : undefined;
  const refused = (error: unknown): Answer => {
    if (contract && error instanceof ApiError && error.code !== 'CONTRACT_VIOLATION') {
      try {
        contract.refusal(op, error);
      } catch (violation) {
        return { ok: false, error: violation, headers };
      }
    }
    // The journal names the operation and its status (the checkpoints' diff lists the calls made since).
    noteOperation(info.journal, { operation: op.id, ...(call.tool ? { tool: call.tool } : {}), status: error instanceof ApiError ? error.status : 500 });
    return { ok: false, error, headers };
  };
  const answer = (principal: Principal, raw: Record<string, unknown>): Answer => {
    try {
      const out = runOperation(emu, principal, op, raw, info, rules);
      contract?.success(op, out.status, out.body);
      if (out.headers) for (const name in out.headers) headers[name] = out.headers[name];
      noteOperation(info.journal, { operation: op.id, ...(call.tool ? { tool: call.tool } : {}), status: out.status });
      return { ok: true, status: out.status, body: out.body, replay: out.replay, headers };
    } catch (error) {
      return refused(error);
    }
  };
  try {
    let principal = call.settled;
    if (!principal) {
      principal = authenticate(emu, info, rules);
      if (rules.charged) charge(emu, principal, call.budget ?? op.budget, headers);
    }
    const raw = call.readInput(emu.maxBodyBytes);
    if (!(raw instanceof Promise)) return answer(principal, raw);
    const settled = principal;
    return raw.then((r) => answer(settled, r), refused);
  } catch (error) {
    return refused(error);
  }
}

/** A request settled once for the calls it carries, or where it was refused. */
export type Settled<T> =
  | { ok: true; principal: Principal; body: T }
  | {
      ok: false;
      error: unknown;
      /** key: key or region refused; body: the body refused (read, or for what it holds); budget: over budget. */
      stage: 'key' | 'body' | 'budget';
      /** The body, when the budget refused a request whose body was read. */
      body?: T;
    };

/**
 * The path's first steps, by the same functions and Rules as runCall, for a transport whose
 * request carries several calls and is settled once (MCP over HTTP: a batch is one request,
 * spec v3 8); each call then runs with `settled`. The body comes between the key and the
 * charge, since what it holds decides the bucket: key → region → body (`read`, within the size
 * limit; a body that did not arrive is not charged) → `parse` (a refusal of what the body holds
 * is charged as one standard request) → budget (`bucket` of the body).
 */
export async function settleRequest<T>(
  emu: Emulator,
  info: CallInfo,
  rules: Rules,
  headers: Record<string, string>,
  s: { read(maxBytes: number): Promise<string>; parse(text: string): T; bucket(body: T): Budget },
): Promise<Settled<T>> {
  let principal: Principal;
  let text: string;
  try {
    principal = authenticate(emu, info, rules);
  } catch (error) {
    return { ok: false, error, stage: 'key' };
  }
  try {
    text = await s.read(emu.maxBodyBytes);
  } catch (error) {
    return { ok: false, error, stage: 'body' };
  }
  let body: T;
  try {
    body = s.parse(text);
  } catch (error) {
    try {
      if (rules.charged) charge(emu, principal, 'standard', headers);
    } catch (over) {
      return { ok: false, error: over, stage: 'budget' };
    }
    return { ok: false, error, stage: 'body' };
  }
  try {
    if (rules.charged) charge(emu, principal, s.bucket(body), headers);
  } catch (error) {
    return { ok: false, error, stage: 'budget', body };
  }
  return { ok: true, principal, body };
}
