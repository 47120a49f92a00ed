// /app/_/live: a Server-Sent Events feed that says when something changed, so pages re-read
// what they show without a reload. One connection per open page (polling would fill the
// request journal with the console's own requests). It carries no data, only stamps:
// `data` (SQLite's total_changes(): every write, webhook deliveries included), the
// emulator clock, and the journal's newest entry.
import type { Emulator } from '../emulator';
import { iso } from '../clock';

const TICK_MS = 250;
const HEARTBEAT_MS = 15_000;

export function liveState(emu: Emulator) {
  const now = emu.clock.now();
  const newest = emu.journal.last(1)[0];
  return {
    data: (emu.db.prepare('SELECT total_changes() AS n').get() as { n: number }).n,
    now: iso(now)!,
    frozen: emu.clock.frozen,
    // Whole seconds: a running clock moves every tick; only a set or advance should count.
    offsetSeconds: Math.round((now - Date.now()) / 1000),
    journal: `${emu.journal.size}:${newest?.requestId ?? ''}:${newest?.at ?? ''}`,
  };
}

/** `feeds` holds a stop function per open feed, so closing the emulator ends them all. */
export function liveStream(emu: Emulator, req: Request, headers: Record<string, string>, feeds: Set<() => void>): Response {
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
        let state: ReturnType<typeof liveState>;
        try {
          state = liveState(emu);
        } catch {
          return stop(); // the database closed under us
        }
        const { now: _now, ...stamp } = state;
        const key = JSON.stringify(stamp);
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
