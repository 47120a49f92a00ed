// Writes from a page: run one API call, show its refusal in place (the API's words), and
// announce the outcome in the page's polite live region for screen readers.
import { useState } from 'preact/hooks';
import type { Answer } from './api';

const listeners = new Set<(m: string) => void>();
export const announce = (m: string) => listeners.forEach((l) => l(m));
export const onAnnounce = (l: (m: string) => void) => {
  listeners.add(l);
  return () => void listeners.delete(l);
};

export function useAction(): {
  busy: boolean;
  refusal?: Answer;
  run: (call: () => Promise<Answer>, done: string, after?: (a: Answer) => void) => Promise<Answer>;
  clear: () => void;
} {
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<Answer | undefined>(undefined);
  return {
    busy,
    refusal,
    clear: () => setRefusal(undefined),
    run: async (call, done, after) => {
      setBusy(true);
      setRefusal(undefined);
      const a = await call();
      setBusy(false);
      if (a.ok) {
        announce(done);
        after?.(a);
      } else {
        setRefusal(a);
        announce(`Refused: ${a.error?.code}: ${a.error?.message}`);
      }
      return a;
    },
  };
}
