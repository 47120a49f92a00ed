// The change feed (/app/_/live, Server-Sent Events): one connection per page; pages
// re-read when `data` moves, the panel's journal when `journal` moves, and the clock
// everyone compares due dates with comes from here (the emulator's, not the browser's).
import { useEffect, useState } from 'preact/hooks';

export interface LiveState {
  data: number;
  now: string;
  frozen: boolean;
  offsetSeconds: number;
  journal: string;
}

let state: LiveState | undefined;
let connected = false;
const listeners = new Set<() => void>();
const notify = () => listeners.forEach((l) => l());

export function startLive(): void {
  const es = new EventSource('/app/_/live');
  es.onmessage = (ev) => {
    try {
      state = JSON.parse(ev.data);
      connected = true;
      notify();
    } catch {
      /* a malformed event changes nothing */
    }
  };
  es.onerror = () => {
    connected = false;
    notify();
  };
}

/** The latest feed state; re-renders the caller whenever it changes. */
export function useLive(): { live?: LiveState; connected: boolean } {
  const [, tick] = useState(0);
  useEffect(() => {
    const l = () => tick((n) => n + 1);
    listeners.add(l);
    return () => void listeners.delete(l);
  }, []);
  return { live: state, connected };
}

/** The emulator's clock now (advancing with the browser's between events). */
export function emulatorNow(live?: LiveState): number {
  return live ? Date.now() + live.offsetSeconds * 1000 : Date.now();
}
