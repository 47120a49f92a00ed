// The change feeds (Server-Sent Events, src/console/live.ts). The page feed follows the
// workspace of the picked key (a ticket from POST /app/_/feeds, since EventSource sends no
// X-API-KEY): pages re-read when its `data` moves, and the clock everyone compares due
// dates with comes from it (the emulator's, not the browser's). The panel opens its own
// feed (journal, deliveries, clock) behind the admin gate while it is on screen. Both emit
// only on change: an idle page neither receives nor sends anything.
import { useEffect, useState } from 'preact/hooks';
import { session } from './session';

export interface ClockStamp {
  now: string;
  frozen: boolean;
  offsetMs: number;
}

export interface LiveState {
  data: number;
  clock: ClockStamp;
}

export interface PanelState {
  data: number;
  clock: ClockStamp;
  journal: number;
  journalWithConsole: number;
}

/** One EventSource with its latest state and listeners. */
class Feed<T> {
  state: T | undefined;
  connected = false;
  private es: EventSource | undefined;
  private readonly listeners = new Set<() => void>();

  open(url: string): void {
    this.close();
    const es = new EventSource(url);
    this.es = es;
    es.onmessage = (ev) => {
      try {
        this.state = JSON.parse(ev.data);
        this.connected = true;
        this.notify();
      } catch {
        /* a malformed event changes nothing */
      }
    };
    es.onerror = () => {
      this.connected = false;
      this.notify();
    };
  }

  close(): void {
    this.es?.close();
    this.es = undefined;
  }

  notify(): void {
    this.listeners.forEach((l) => l());
  }

  use(): T | undefined {
    const [, tick] = useState(0);
    useEffect(() => {
      const l = () => tick((n) => n + 1);
      this.listeners.add(l);
      return () => void this.listeners.delete(l);
    }, []);
    return this.state;
  }
}

const page = new Feed<LiveState>();
const panel = new Feed<PanelState>();

/** Follows the picked key's workspace; a new key gets a new ticket and a new feed. */
export function startLive(): void {
  let current = '';
  const follow = async () => {
    if (session.key === current) return;
    current = session.key;
    page.close();
    if (!current) return;
    const res = await fetch('/app/_/feeds', { method: 'POST', headers: { 'X-API-KEY': current } }).catch(() => undefined);
    if (!res?.ok || session.key !== current) return; // a refused key: its pages show the refusal
    const { feed } = await res.json();
    page.open(`/app/_/live?feed=${encodeURIComponent(feed)}`);
  };
  session.subscribe(() => void follow());
  void follow();
}

/** The latest page-feed state; re-renders the caller whenever it changes. */
export function useLive(): { live?: LiveState; connected: boolean } {
  const live = page.use();
  return { live, connected: page.connected };
}

let panelUsers = 0;
/** The panel's feed, open while a panel component is mounted (`signedIn`: the admin gate lets it in). */
export function usePanelLive(signedIn: boolean): PanelState | undefined {
  const state = panel.use();
  useEffect(() => {
    if (!signedIn) return;
    if (panelUsers++ === 0) panel.open('/app/_/live/panel');
    return () => {
      if (--panelUsers === 0) {
        panel.close();
        panel.state = undefined;
      }
    };
  }, [signedIn]);
  return state;
}

/** The emulator's clock now: its value when frozen, else the browser's clock plus the offset. */
export function emulatorNow(live?: { clock: ClockStamp }): number {
  if (!live) return Date.now();
  return live.clock.frozen ? Date.parse(live.clock.now) : Date.now() + live.clock.offsetMs;
}
