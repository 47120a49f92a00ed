import type { IncomingHttpHeaders } from 'node:http';
import type { JournalEntry } from '../public/types';
export type { JournalEntry };

/** Filled in while a request runs; the pipeline sets keyName once the key is known. */
export interface JournalMark {
  /** When the request arrived (emulator clock) and its performance.now(), for the duration. */
  at: number;
  started: number;
  keyName?: string;
  requestId?: string;
  fault?: JournalEntry['fault'];
  /** The operations the request ran (a batch of MCP tool calls runs several), with each one's status. */
  ops?: JournalOp[];
}

/** One operation a request ran: its id, its MCP tool when called as one, and the status it answered. */
export interface JournalOp {
  operation: string;
  tool?: string;
  status: number;
}

/** An entry with its sequence number and the operations it ran, for the checkpoints' diff. */
export type JournalRecord = JournalEntry & { seq: number; ops?: JournalOp[] };

/** Notes an operation on a request's mark (the pipeline, once it knows the answer). */
export function noteOperation(mark: JournalMark | undefined, op: JournalOp): void {
  if (mark) (mark.ops ??= []).push(op);
}

/** As kept in memory: the time stays a number until someone reads the journal. */
type Stored = Omit<JournalEntry, 'at'> & { at: number; seq: number; ops?: JournalOp[] };

/** One bounded ring of entries, newest last. */
class Ring {
  private ring: (Stored | undefined)[];
  private next = 0;
  count = 0;
  /** Entries ever recorded: moves on every record, even when the ring is full. */
  recorded = 0;
  /** The sequence number of the newest entry the ring has let go (overwritten or cleared). */
  droppedUpTo = 0;

  constructor(readonly capacity: number) {
    this.ring = new Array(capacity);
  }

  record(e: Stored): void {
    const old = this.ring[this.next];
    if (old) this.droppedUpTo = old.seq;
    this.ring[this.next] = e;
    this.next = (this.next + 1) % this.capacity;
    if (this.count < this.capacity) this.count++;
    this.recorded++;
  }

  /** The last `limit` entries, newest first. */
  last(limit: number): Stored[] {
    const out: Stored[] = [];
    for (let i = 1; i <= Math.min(limit, this.count); i++) out.push(this.ring[(this.next - i + this.capacity) % this.capacity]!);
    return out;
  }

  clear(): void {
    if (this.count) this.droppedUpTo = this.last(1)[0].seq;
    this.ring = new Array(this.capacity);
    this.next = 0;
    this.count = 0;
  }
}

/**
 * The API's requests in one ring, the console's own in another: a console left open
 * never pushes a test's requests out of the journal.
 */
export class RequestJournal {
  private readonly api: Ring;
  private readonly console: Ring;
  private seq = 0;

  constructor(readonly capacity = 1000) {
    this.api = new Ring(capacity);
    this.console = new Ring(capacity);
  }

  record(e: Omit<Stored, 'seq'>): void {
    const stored = e as Stored;
    stored.seq = ++this.seq;
    (e.console ? this.console : this.api).record(stored);
  }

  /** The last `limit` entries, newest first; the console's own only when asked for. */
  last(limit: number, withConsole = false): JournalEntry[] {
    let list = this.api.last(limit);
    if (withConsole) list = [...list, ...this.console.last(limit)].sort((a, b) => b.seq - a.seq).slice(0, limit);
    return list.map(({ seq: _seq, ops: _ops, ...e }) => ({ ...e, at: new Date(e.at).toISOString() }));
  }

  /** The sequence number of the last entry recorded (the API's and the console's share one count). */
  get lastSeq(): number {
    return this.seq;
  }

  /**
   * The API's entries after sequence number `seq`, oldest first, with the operations each ran;
   * `complete` is false when the ring has since dropped some of them.
   */
  since(seq: number): { entries: JournalRecord[]; complete: boolean } {
    const list = this.api.last(this.api.count).filter((e) => e.seq > seq).reverse();
    const complete = this.api.droppedUpTo <= seq;
    return { entries: list.map((e) => ({ ...e, at: new Date(e.at).toISOString() })), complete };
  }

  /** Records a finished request (both HTTP paths call this, once per request). */
  finish(mark: JournalMark, method: string, path: string, status: number, region: 'US' | 'EU', requestId = ''): void {
    const entry: Omit<Stored, 'seq'> = {
      at: mark.at,
      method,
      path,
      status,
      keyName: mark.keyName,
      requestId: mark.requestId ?? requestId,
      durationMs: Math.round((performance.now() - mark.started) * 100) / 100,
      region,
    };
    if (mark.fault) entry.fault = mark.fault;
    if (mark.ops) entry.ops = mark.ops;
    if (path === '/app' || path.startsWith('/app/')) entry.console = true;
    this.record(entry);
  }

  get size(): number {
    return this.api.count;
  }

  /** Moves whenever an entry is recorded (the console's when `withConsole`). */
  stamp(withConsole = false): number {
    return this.api.recorded + (withConsole ? this.console.recorded : 0);
  }

  clear(): void {
    this.api.clear();
    this.console.clear();
  }
}

/** A request's journal mark, opened when it arrives. */
export const startMark = (emu: { clock: { now(): number } }): JournalMark => ({ at: emu.clock.now(), started: performance.now() });

type Handle = (req: Request, sourceIp: string, journal?: JournalMark, raw?: IncomingHttpHeaders) => Promise<Response>;

/**
 * Wraps an address's request handler so every request except the control routes
 * themselves is journaled: method, path, status, key name, request id, duration.
 */
export function withJournal(emu: { journal: RequestJournal; clock: { now(): number } }, region: 'US' | 'EU', handle: Handle) {
  return async (req: Request, sourceIp: string, raw?: IncomingHttpHeaders): Promise<Response> => {
    const path = pathOf(req.url);
    if (path.startsWith('/_emulator')) return handle(req, sourceIp, undefined, raw);
    const mark = startMark(emu);
    const res = await handle(req, sourceIp, mark, raw);
    emu.journal.finish(mark, req.method, path, res.status, region, res.headers.get('x-request-id') ?? '');
    return res;
  };
}

/** The path of an absolute URL without building a URL object (hot path). */
function pathOf(url: string): string {
  const start = url.indexOf('/', url.indexOf('//') + 2);
  if (start < 0) return '/';
  const q = url.indexOf('?', start);
  return q < 0 ? url.slice(start) : url.slice(start, q);
}
