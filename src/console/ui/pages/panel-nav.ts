// The emulator panel's own navigation (issue 40): the overview with clock, database, deliveries
// and journal, then fault rules, API keys and instances, each a page of its own (a URL to share).
import { useEffect, useState } from 'preact/hooks';
import { html } from '../html';
import { config } from '../config';
import { useSession } from '../hooks';
import { usePanelLive, type PanelState } from '../live';

export const PANEL_PAGES: [string, string][] = [
  ['/app/emulator', 'Overview'],
  ['/app/emulator/faults', 'Fault rules'],
  ['/app/emulator/keys', 'API keys'],
  ['/app/emulator/instances', 'Instances'],
];

export function PanelNav({ path }: { path: string }) {
  return html`<nav class="subnav" aria-label="Emulator panel">
    <ul>${PANEL_PAGES.map(([href, label]) => html`<li><a href=${href} aria-current=${path === href ? 'page' : undefined}>${label}</a></li>`)}</ul>
  </nav>`;
}

/** A control route's field as the form sends it: empty is left out, numbers are numbers. */
export function numberOr(raw: string): number | string | undefined {
  const t = raw.trim();
  if (t === '') return undefined;
  return Number.isNaN(Number(t)) ? t : Number(t);
}

/** POST /app/_/sign-in with the token (as panel.ts): the cookie the panel's EventSource needs. */
/** Signs the tab in to the panel's feed with the admin token (the cookie the feed needs under --admin-token). */
export const signIn = (token: string) => fetch('/app/_/sign-in', { method: 'POST', headers: { Authorization: `Bearer ${token.trim()}` } });

/**
 * The panel feed for a panel page. With --admin-token the feed needs the sign-in cookie; a tab
 * signed in before a restart signs in again (as PanelPage does).
 */
export function usePanelFeed(): PanelState | undefined {
  const s = useSession();
  const [ready, setReady] = useState(config.admin !== 'token');
  useEffect(() => {
    if (config.admin !== 'token' || !s.token) return;
    void signIn(s.token).then((r) => (r.ok ? setReady(true) : s.setToken('')));
  }, [s.token]);
  return usePanelLive(ready);
}

/** A number that moves whenever the panel feed says data or the journal moved (a re-read's watch stamp). */
export const panelStamp = (live?: PanelState) => (live ? live.data * 1_000_003 + live.journal : undefined);
