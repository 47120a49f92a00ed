// A first visit asks who to act as (issue 40): a fresh browser on any page, a deep link
// included, chooses a key before the page reads anything, instead of acting as the first key
// of the fixture (an Administrator's) without saying so. The suggestion is that key; the
// choice is kept in localStorage, so the question comes once per browser and address.
import { useEffect, useState } from 'preact/hooks';
import { html } from '../html';
import { admin } from '../api';
import { config } from '../config';
import { useSession } from '../hooks';
import { inputValue } from '../forms';

interface PickerKey {
  key: string;
  workspace: string;
  region: string;
  actsAs: string;
  state?: string;
}

export function ChooseKey({ path }: { path: string }) {
  const s = useSession();
  const [keys, setKeys] = useState<PickerKey[] | undefined>(undefined);
  const [typed, setTyped] = useState('');
  useEffect(() => {
    if (config.admin === 'off' || (config.admin === 'token' && !s.token)) return;
    void admin('GET', '/_emulator/console/keys').then((a) => a.ok && setKeys(a.body.items));
  }, [s.token]);
  const here = (keys ?? []).filter((k) => k.region === config.region && !k.state);
  // The suggestion (the key a first visit used to take silently) first.
  here.sort((a, b) => Number(b.key === config.defaultKey) - Number(a.key === config.defaultKey));
  return html`<h1>Who do you want to act as?</h1>
    <p>The console reads and writes through the v3 API with an API key, and everything it does is done as that key's member or workspace. Choose one to open <code>${path}</code>; you can change it at any time in the bar above.</p>
    ${here.length > 0 &&
    html`<ul class="choices-list" data-testid="choose-key">${here.map(
      (k) => html`<li><button type="button" onClick=${() => s.setKey(k.key)}>Act as ${k.actsAs}<span class="muted-on-accent"> · ${k.workspace} · ${k.key}</span></button>${k.key === config.defaultKey ? html` <span class="muted">(suggested)</span>` : ''}</li>`,
    )}</ul>`}
    ${config.admin === 'token' && !s.token && html`<p class="muted">The key list is behind the admin token (<a href="/app/emulator">sign in to the panel</a>), or type a key.</p>`}
    <form class="inline" onSubmit=${(e: Event) => {
      e.preventDefault();
      if (typed.trim()) s.setKey(typed);
    }}>
      <label for="choose-key-input">${here.length ? 'Or type a key' : 'API key'}</label>
      <input id="choose-key-input" type="password" autocomplete="off" value=${typed} onInput=${inputValue(setTyped)} />
      <button type="submit">Act with this key</button>
    </form>`;
}
