// Reading through the API: useApi re-reads when the key changes, when the change feed
// says data moved (debounced, so a burst of writes costs one re-read), or on demand.
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
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

export function useApi<T = any>(load: () => Promise<Answer<T>>, deps: unknown[], watch: 'data' | 'journal' | 'none' = 'data'): { answer?: Answer<T>; reload: () => void } {
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
  useEffect(() => {
    setAnswer(undefined);
    reload();
  }, [reload]);
  const stamp = watch === 'data' ? live?.data : watch === 'journal' ? live?.journal : undefined;
  const prev = useRef(stamp);
  useEffect(() => {
    const before = prev.current;
    prev.current = stamp;
    if (before === undefined || stamp === undefined || before === stamp) return;
    const t = setTimeout(reload, DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [stamp]);
  return { answer, reload };
}
