import type { IncomingHttpHeaders } from 'node:http';
// The request journal behind GET /_emulator/journal: the last requests in memory,
// bounded (a ring), never written to SQLite (the per-request cost rule).
export interface JournalEntry {
  /** When the request arrived (emulator clock, ISO ending Z). */
  at: string;
  method: string;
  path: string;
  status: number;
  /** Name of the API key that authenticated it; absent when none did. */
  keyName?: string;
  requestId: string;
  durationMs: number;
  region: 'US' | 'EU';
  /** Set when an injected fault (src/faults) answered, delayed or dropped the call. */
  fault?: { rule: string; kind: 'status' | 'delay' | 'drop' };
}

/** Filled in while a request runs; the pipeline sets keyName once the key is known. */
export interface JournalMark {
  /** When the request arrived (emulator clock) and its performance.now(), for the duration. */
  at: number;
  started: number;
  keyName?: string;
  requestId?: string;
  fault?: JournalEntry['fault'];
}

/** As kept in memory: the time stays a number until someone reads the journal. */
type Stored = Omit<JournalEntry, 'at'> & { at: number };

export class RequestJournal {
  private ring: (Stored | undefined)[];
  private next = 0;
  private count = 0;

  constructor(readonly capacity = 1000) {
    this.ring = new Array(capacity);
  }

  record(e: Stored): void {
    this.ring[this.next] = e;
    this.next = (this.next + 1) % this.capacity;
    if (this.count < this.capacity) this.count++;
  }

  /** The last `limit` entries, newest first. */
  last(limit: number): JournalEntry[] {
    const out: JournalEntry[] = [];
    for (let i = 1; i <= Math.min(limit, this.count); i++) {
      const e = this.ring[(this.next - i + this.capacity) % this.capacity]!;
      out.push({ ...e, at: new Date(e.at).toISOString() });
    }
    return out;
  }

  /** Records a finished request (both HTTP paths call this, once per request). */
  finish(mark: JournalMark, method: string, path: string, status: number, region: 'US' | 'EU', requestId = ''): void {
    this.record({
      at: mark.at,
      method,
      path,
      status,
      keyName: mark.keyName,
      requestId: mark.requestId ?? requestId,
      durationMs: Math.round((performance.now() - mark.started) * 100) / 100,
      region,
      ...(mark.fault ? { fault: mark.fault } : {}),
    });
  }

  get size(): number {
    return this.count;
  }

  clear(): void {
    this.ring = new Array(this.capacity);
    this.next = 0;
    this.count = 0;
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
