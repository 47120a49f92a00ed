// Writes from a page: run one API call, show its refusal in place (the API's words), and
// announce a success once in the page's polite live region (a refusal box is an alert,
// announced by itself). A success anywhere clears every refusal box on the page, and a
// refusal replaces the one shown before it. Focus
// goes back to the control that acted, or, when it is gone, to the first control of its
// group (the `data-focus-group` around it), so a keyboard user keeps their place.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Answer } from './api';

const listeners = new Set<(m: string) => void>();
export const announce = (m: string) => listeners.forEach((l) => l(m));
export const onAnnounce = (l: (m: string) => void) => {
  listeners.add(l);
  return () => void listeners.delete(l);
};

const clearers = new Set<() => void>();

/** Puts focus back on `el`, or on the first control of its group when it left the page. */
function restoreFocus(el: HTMLElement | null, group: Element | null): void {
  if (!el) return;
  const go = () => {
    // Never taken from where the user has since put it.
    const now = document.activeElement;
    if (now && now !== document.body && now !== el) return;
    if (el.isConnected) {
      if (document.activeElement !== el) el.focus();
      return;
    }
    const next = group?.isConnected ? group.querySelector<HTMLElement>('button, input, select, textarea, a[href]') : null;
    next?.focus();
  };
  go();
  // The answer re-renders the task after the feed's re-read: check again once it has.
  setTimeout(go, 50);
  setTimeout(go, 700);
}

export function useAction(): {
  busy: boolean;
  refusal?: Answer;
  run: (call: () => Promise<Answer>, done: string, after?: (a: Answer) => void) => Promise<Answer>;
  clear: () => void;
} {
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<Answer | undefined>(undefined);
  // Controls stay enabled while busy (disabling the focused one would drop focus to <body>); a second press waits for the first.
  const inFlight = useRef<Promise<Answer> | undefined>(undefined);
  const mine = useRef<() => void>(() => setRefusal(undefined));
  useEffect(() => {
    const clear = mine.current;
    clearers.add(clear);
    return () => void clearers.delete(clear);
  }, []);
  return {
    busy,
    refusal,
    clear: () => setRefusal(undefined),
    run: (call, done, after) => (inFlight.current ??= go(call, done, after).finally(() => (inFlight.current = undefined))),
  };
  async function go(call: () => Promise<Answer>, done: string, after?: (a: Answer) => void): Promise<Answer> {
    const acting = document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : null;
    const group = acting?.closest('[data-focus-group]') ?? null;
    setBusy(true);
    setRefusal(undefined);
    const a = await call();
    setBusy(false);
    if (a.ok) {
      clearers.forEach((c) => c());
      announce(done);
      after?.(a);
    } else {
      // The newest refusal replaces every older one on the page: boxes never pile up.
      clearers.forEach((c) => c !== mine.current && c());
      setRefusal(a);
    }
    restoreFocus(acting, group);
    return a;
  }
}
