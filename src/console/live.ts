// The console's change feeds (Server-Sent Events). Each says only that something a page
// shows changed, never what; an event goes out only when its stamp moves, so an idle page
// receives nothing and sends nothing (a comment every 15 s keeps the connection open).
// - The page feed (/app/_/live?feed=<ticket>): the data of the ticket's workspace
//   (platform/changes.ts) and the emulator clock. No request ids, nothing of another
//   workspace; open under --no-admin too, since pages follow changes there as well.
// - The panel feed (/app/_/live/panel, behind the admin gate): the clock, the request
//   journal (the API's requests; the console's own separately) and every write of the
//   emulator (webhook deliveries included), for the panel's cards.
// The clock's stamp is its value when frozen and its offset from real time when running:
// a running clock moves by itself (the page adds the offset to its own clock) and a
// frozen one is still, so neither emits until someone sets, advances, freezes or
// unfreezes it.
import { Slot, type Emulator } from '../emulator';
import { iso } from '../clock';
import { totalChanges } from '../store/change-signal';

const TICK_MS = 250;
const HEARTBEAT_MS = 15_000;

export interface ClockStamp {
  now: string;
  frozen: boolean;
  /** Running: the emulator's clock minus real time, in ms (0 unless set or advanced). */
  offsetMs: number;
}

export function clockStamp(emu: Emulator): ClockStamp {
  const frozen = emu.clock.frozen;
  return { now: iso(emu.clock.now())!, frozen, offsetMs: frozen ? 0 : Math.round(emu.clock.offset) };
}

/** The part of the clock that says it was moved (not `now` while running). */
const clockKey = (c: ClockStamp) => (c.frozen ? `f${c.now}` : `r${c.offsetMs}`);

/** The database's data_version when the console last looked. */
const DATA_VERSION = new Slot<number>('console data version');
/**
 * Another process writing the same database file (`wfe mcp --db F` beside `wfe serve --db F`)
 * moves PRAGMA data_version; whose data it was is unknown, so every page re-reads.
 */
function watchOtherProcesses(emu: Emulator): void {
  const v = emu.db.pragma('data_version', { simple: true }) as number;
  const before = emu.slot(DATA_VERSION);
  emu.setSlot(DATA_VERSION, v);
  if (before !== undefined && before !== v) emu.changes.everything();
}

export function pageState(emu: Emulator, workspaceId: number) {
  watchOtherProcesses(emu);
  return { data: emu.changes.stamp(workspaceId), clock: clockStamp(emu) };
}

export function panelState(emu: Emulator) {
  watchOtherProcesses(emu);
  return {
    data: totalChanges(emu.db) + (emu.slot(DATA_VERSION) ?? 0),
    clock: clockStamp(emu),
    journal: emu.journal.stamp(false),
    journalWithConsole: emu.journal.stamp(true),
  };
}

type State = { clock: ClockStamp } & Record<string, unknown>;

/** `feeds` holds a stop function per open feed, so closing the emulator ends them all. */
export function liveStream(emu: Emulator, req: Request, headers: Record<string, string>, feeds: Set<() => void>, read: () => State): Response {
  let stop = () => {};
  const enc = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      let last = '';
      let beat = Date.now();
      const send = (text: string) => {
        try {
          controller.enqueue(enc.encode(text));
        } catch {
          stop();
        }
      };
      const tick = () => {
        let state: State;
        try {
          state = read();
        } catch {
          return stop(); // the database closed under us
        }
        const key = JSON.stringify({ ...state, clock: clockKey(state.clock) });
        if (key !== last) {
          last = key;
          beat = Date.now();
          send(`data: ${JSON.stringify(state)}\n\n`);
        } else if (Date.now() - beat > HEARTBEAT_MS) {
          beat = Date.now();
          send(`: keep-alive\n\n`);
        }
      };
      const timer = setInterval(tick, TICK_MS);
      timer.unref?.();
      const mine = feeds;
      stop = () => {
        clearInterval(timer);
        mine.delete(stop);
        try {
          controller.close();
        } catch {
          /* already closed */
        }
      };
      mine.add(stop);
      send('retry: 1000\n\n');
      tick();
      req.signal?.addEventListener('abort', () => stop());
    },
    cancel() {
      stop();
    },
  });
  return new Response(stream, {
    status: 200,
    headers: { ...headers, 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store', 'X-Accel-Buffering': 'no' },
  });
}
