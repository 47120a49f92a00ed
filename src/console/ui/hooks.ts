// Reading through the API: useApi re-reads when the key changes, when the page feed says
// the workspace's data moved (debounced, so a burst of writes costs one re-read), when a
// stamp the caller watches moves (the panel's journal), or on demand. A re-read keeps the
// last answer on screen until the new one arrives (no "Loading…" flash).
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { type Answer } from './api';
import { session } from './session';
import { useLive } from './live';

export function useSession(): typeof session {
  const [, tick] = useState(0);
  useEffect(() => {
    const off = session.subscribe(() => tick((n) => n + 1));
    return () => void off();
  }, []);
  return session;
}

const DEBOUNCE_MS = 300;

/** `watch`: 'data' (the page feed), 'none', or a stamp of the caller's own (a number that moves). */
export function useApi<T = any>(load: () => Promise<Answer<T>>, deps: unknown[], watch: 'data' | 'none' | number | undefined = 'data'): { answer?: Answer<T>; reload: () => void } {
  const s = useSession();
  const { live } = useLive();
  const [answer, setAnswer] = useState<Answer<T> | undefined>(undefined);
  const seq = useRef(0);
  const reload = useCallback(() => {
    const mine = ++seq.current;
    void load().then((a) => {
      if (mine === seq.current) setAnswer(a);
    });
  }, [s.key, s.token, ...deps]);
  // The feed's timer calls the newest reload (the filters of now, not of when the stamp moved).
  const latest = useRef(reload);
  latest.current = reload;
  // Before the first paint: a read the page shell already carries (preload.ts) renders in the same frame.
  useLayoutEffect(() => {
    setAnswer(undefined);
    reload();
  }, [reload]);
  const stamp = watch === 'data' ? live?.data : watch === 'none' ? undefined : watch;
  const prev = useRef(stamp);
  useEffect(() => {
    const before = prev.current;
    prev.current = stamp;
    if (before === undefined || stamp === undefined || before === stamp) return;
    const t = setTimeout(() => latest.current(), DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [stamp]);
  return { answer, reload };
}
