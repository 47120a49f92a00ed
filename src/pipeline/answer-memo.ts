// A read's answer, remembered until the database changes (issue 24: the task detail read, the
// Tasks grid). A read operation's handler is a function of the database, its input, who asks
// (key, time zone, address, transport) and, for some, the time: the domain reads the time only
// through ctx.now() (the linter holds it: no Date.now(), no new Date(), no clock in src/domain
// and src/rows). So an answer is the same while the database is (store/memo.ts; a handler may
// read any table, so every row written counts) and, when the handler asked the time, while the clock stays
// frozen at that instant, or until the instant the handler said its answer holds to
// (ctx.holdsUntil: the grid's statuses change only when a due date passes, a snooze ends or
// the day does).
// A write declared unchangedIsRead (operations/define.ts) is kept the same way when its call
// changed no row (a complete of a task already complete): such a call is a read. When its call
// wrote, its answer is the one its repeat would give at the state it left, so it is kept for that
// state: the repeat that follows a retried complete is answered from memory. The clock read before
// the call's last row written went into that state (a completion stamp), not around it.
// Not kept: an answer whose handler wrote (the database moved while it ran), unless its operation
// is such a write; one that read a running clock and said nothing, a refusal (recomputed each
// time), a non-JSON body (the CSV export), and more than 100 answers at once (the oldest are
// dropped together).
import type { Ctx } from '../context';
import type { Operation } from '../operations/define';
import type { Outcome } from './types';
import { declareMemo, memoOn } from '../store/memo';
import { totalChanges } from '../store/change-signal';
import { RawBody } from '../operations/raw-body';

interface Remembered {
  outcome: Outcome;
  /** The instant the handler read, or undefined when it never asked the time. */
  at: number | undefined;
  /** Until when (exclusive) the answer holds as the clock runs on from `at`, as the handler said. */
  until: number;
}

const ANSWERS = declareMemo({ name: 'read answers', reads: 'any', max: 100 });

/**
 * Who asks and how, as far as a read's answer can tell (the raw input is the rest of the key).
 * The time zone by what it is made of, the X-SVC-Timezone header as sent and the key's member's
 * profile zone (the key names the member; its row is the database's): reading ctx.timeZone would
 * resolve it, which loads ICU's zone data on a first request that needs none.
 */
const askerOf = (op: Operation, ctx: Ctx, zoneHeader: string) =>
  `${op.id}\n${ctx.actor.key?.id ?? ''}\n${ctx.actor.kind}\n${zoneHeader}\n${ctx.transport}\n${ctx.baseUrl}\n`;

/** Whether a remembered answer is still the one the handler would give at the clock's instant `now`. */
const holdsAt = (r: Remembered, now: number, frozen: boolean) => r.at === undefined || (frozen && now === r.at) || (r.at <= now && now < r.until);

/**
 * Answers a read from memory when the same asker sent the same raw input since the database last
 * changed, and the answer still holds at the clock's instant; otherwise runs `read` (validation
 * and handler) and keeps what it answered, unless it wrote.
 */
export function rememberedAnswer(ctx: Ctx, op: Operation, raw: Record<string, unknown>, zoneHeader: string, read: (ctx: Ctx) => Outcome): Outcome {
  let key: string;
  try {
    key = askerOf(op, ctx, zoneHeader) + JSON.stringify(raw);
  } catch {
    return read(ctx); // an input JSON cannot spell (never from HTTP or MCP) is simply not kept
  }
  const memo = memoOn<string, Remembered>(ctx.db, ANSWERS);
  const hit = memo.peek(key);
  if (hit && holdsAt(hit, hit.at === undefined ? 0 : ctx.clock.now(), ctx.clock.frozen)) {
    // Verify mode: the handler runs again and must answer the same (it holds at this instant, as it said).
    if (memo.verifying) memo.check(key, hit.outcome, read(ctx));
    return hit.outcome;
  }
  const seeds = op.unchangedIsRead === true;
  const mark = memo.mark(key);
  const written = seeds ? totalChanges(ctx.db) : 0;
  // The context's own methods (its class's), called on it: a read's handler sees these in their place.
  const { now, holdsUntil } = ctx;
  let at: number | undefined;
  let until = -Infinity;
  let steady = true;
  // For a write: the clock as read since the last row it wrote (rows written then, the instant, steady).
  let lastWritten = -1;
  let lastAt: number | undefined;
  let lastSteady = true;
  ctx.now = () => {
    const t = now.call(ctx);
    if (at !== undefined && t !== at) steady = false;
    at = t;
    if (seeds) {
      const w = totalChanges(ctx.db);
      if (w !== lastWritten) [lastWritten, lastAt, lastSteady] = [w, undefined, true];
      if (lastAt !== undefined && t !== lastAt) lastSteady = false;
      lastAt = t;
    }
    return t;
  };
  ctx.holdsUntil = (instant) => {
    until = until === -Infinity ? instant : Math.min(until, instant);
  };
  let outcome: Outcome;
  try {
    outcome = read(ctx);
  } finally {
    ctx.now = now;
    ctx.holdsUntil = holdsUntil;
  }
  if (outcome.body instanceof RawBody) return outcome;
  const total = seeds ? totalChanges(ctx.db) : written;
  if (total !== written) {
    // The call wrote: its answer is its repeat's at the state it left. The clock read before its
    // last row written stamped that state; read after it, it is the answer's own.
    const after = lastWritten === total;
    const r: Remembered = { outcome, at: after ? lastAt : undefined, until };
    if ((!after || lastSteady) && holdsAt(r, r.at ?? 0, ctx.clock.frozen)) memo.putAfterOwnWrite(key, r, mark);
  } else {
    const r: Remembered = { outcome, at, until };
    // Not kept: a handler that read two different instants, or read a running clock without saying how long its answer holds.
    if (!steady || !holdsAt(r, at ?? 0, ctx.clock.frozen)) return outcome;
    memo.put(key, r, mark);
  }
  if (typeof outcome.body === 'object' && outcome.body !== null) texts.set(outcome.body, null);
  return outcome;
}

/** Remembered answers' bodies, with their JSON text once written (null until then). */
const texts = new WeakMap<object, string | null>();

/** The JSON text of an answer: a remembered answer's is made once (a Tasks grid page is 13.6 KB). */
export function answerText(body: unknown, make: () => string): string {
  if (typeof body !== 'object' || body === null) return make();
  const known = texts.get(body);
  if (known) return known;
  const text = make();
  if (known === null) texts.set(body, text);
  return text;
}
