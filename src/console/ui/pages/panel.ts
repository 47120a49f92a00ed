// The emulator's own panel (/_emulator control routes): clock, reset, export and import,
// the live request journal, webhook deliveries with their exact bodies, headers (the
// signature), attempts, and replay. With --admin-token every call carries the token.
import { useState } from 'preact/hooks';
import { html } from '../html';
import { admin, enc } from '../api';
import { useApi, useSession } from '../hooks';
import { session } from '../session';
import { useAction } from '../action';
import { useLive } from '../live';
import { Loaded, Refusal, Badge, Time, Wide, when } from '../parts';

export function SignIn() {
  const s = useSession();
  const [token, setToken] = useState('');
  const [refused, setRefused] = useState<any>(undefined);
  return html`<h1>Sign in to the emulator panel</h1>
    <p>This emulator runs with <code>--admin-token</code>: the panel needs that token.</p>
    <form onSubmit=${async (e: Event) => {
      e.preventDefault();
      const res = await fetch('/_emulator/clock', { headers: { Authorization: `Bearer ${token.trim()}` } });
      if (res.ok) {
        setRefused(undefined);
        s.setToken(token);
      } else setRefused({ status: res.status, error: (await res.json().catch(() => ({})))?.error ?? { code: `HTTP_${res.status}`, message: '' } });
    }}>
      <label for="admin-token">Admin token</label>
      <input id="admin-token" type="password" autocomplete="current-password" value=${token} onInput=${(e: Event) => setToken((e.target as HTMLInputElement).value)} />
      <button type="submit">Sign in</button>
    </form>
    ${refused && html`<${Refusal} status=${refused.status} error=${refused.error} what="sign-in" />`}`;
}

function Clock() {
  const { live } = useLive();
  const clock = useApi(() => admin('GET', '/_emulator/clock'), [live?.offsetSeconds, live?.frozen], 'none');
  const act = useAction();
  const [now, setNow] = useState('');
  const [amount, setAmount] = useState('1');
  const [unit, setUnit] = useState('days');
  return html`<section aria-labelledby="clock-h" class="card">
    <h2 id="clock-h">Clock</h2>
    <${Loaded} answer=${clock.answer} what="clock">${(c: any) => html`<p>Now <strong><time datetime=${c.now} data-testid="clock-now">${when(c.now)}</time></strong> ${c.frozen ? html`<${Badge} kind="halted">frozen<//>` : html`<${Badge} kind="muted">running<//>`} <span class="muted">(${c.offsetSeconds} s from real time)</span></p>
      <button type="button" onClick=${() => act.run(() => admin('PUT', '/_emulator/clock', { frozen: !c.frozen }), c.frozen ? 'Clock running' : 'Clock frozen', clock.reload)}>${c.frozen ? 'Unfreeze' : 'Freeze'}</button>`}<//>
    <form class="inline" onSubmit=${(e: Event) => {
      e.preventDefault();
      void act.run(() => admin('POST', '/_emulator/clock/advance', { [unit]: Number(amount) }), `Clock advanced ${amount} ${unit}`, clock.reload);
    }}>
      <label for="adv-amount">Advance by</label>
      <input id="adv-amount" type="number" min="0" step="any" value=${amount} onInput=${(e: Event) => setAmount((e.target as HTMLInputElement).value)} />
      <label for="adv-unit" class="sr-only">Unit</label>
      <select id="adv-unit" value=${unit} onChange=${(e: Event) => setUnit((e.target as HTMLSelectElement).value)}>${['seconds', 'minutes', 'hours', 'days'].map((u) => html`<option value=${u}>${u}</option>`)}</select>
      <button type="submit">Advance</button>
    </form>
    <form class="inline" onSubmit=${(e: Event) => {
      e.preventDefault();
      void act.run(() => admin('PUT', '/_emulator/clock', { now }), `Clock set to ${now}`, clock.reload);
    }}>
      <label for="set-now">Set to (ISO 8601)</label>
      <input id="set-now" placeholder="2026-01-31T09:00:00Z" value=${now} onInput=${(e: Event) => setNow((e.target as HTMLInputElement).value)} />
      <button type="submit">Set clock</button>
    </form>
    ${act.refusal && html`<${Refusal} status=${act.refusal.status} error=${act.refusal.error!} what="clock" />`}
  </section>`;
}

function Database() {
  const act = useAction();
  const exportDb = async () => {
    const res = await fetch('/_emulator/export', { headers: session.token ? { Authorization: `Bearer ${session.token}` } : {} });
    if (!res.ok) {
      const error = (await res.json().catch(() => undefined))?.error ?? { code: `HTTP_${res.status}`, message: '' };
      return act.run(async () => ({ ok: false, status: res.status, body: undefined, error }), '');
    }
    const blob = await res.blob();
    const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'wfe.sqlite';
    const url = URL.createObjectURL(blob);
    const a2 = document.createElement('a');
    a2.href = url;
    a2.download = name;
    a2.click();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
    return act.run(async () => ({ ok: true, status: 200, body: undefined }), `Exported ${name}`);
  };
  return html`<section aria-labelledby="db-h" class="card">
    <h2 id="db-h">Database</h2>
    <div class="actions">
      <button type="button" onClick=${() => confirm('Reset every workspace to the fixture? Everything written since is lost.') && act.run(() => admin('POST', '/_emulator/reset'), 'Reset to the fixture')}>Reset to the fixture</button>
      <button type="button" onClick=${exportDb}>Export the database</button>
    </div>
    <label>Import a database file <input type="file" accept=".sqlite,.db,application/vnd.sqlite3" onChange=${async (e: Event) => {
      const f = (e.target as HTMLInputElement).files?.[0];
      if (f) await act.run(() => admin('POST', '/_emulator/import', f), `Imported ${f.name}`);
    }} /></label>
    ${act.refusal && html`<${Refusal} status=${act.refusal.status} error=${act.refusal.error!} what="database" />`}
  </section>`;
}

function Journal() {
  const [mine, setMine] = useState(false);
  const j = useApi(() => admin('GET', '/_emulator/journal?limit=200'), [], 'journal');
  return html`<section aria-labelledby="journal-h" class="card">
    <h2 id="journal-h">Request journal <span class="muted">(live)</span></h2>
    <label class="check"><input type="checkbox" checked=${mine} onChange=${(e: Event) => setMine((e.target as HTMLInputElement).checked)} /> show the console's own page loads</label>
    <${Loaded} answer=${j.answer} what="journal">${(b: any) => {
      const items = (b.items as any[]).filter((e) => mine || !e.path.startsWith('/app'));
      return html`<${Wide} label="Request journal"><table data-testid="journal">
        <thead><tr><th scope="col">At</th><th scope="col">Method</th><th scope="col">Path</th><th scope="col">Status</th><th scope="col">Key</th><th scope="col">ms</th><th scope="col">Region</th></tr></thead>
        <tbody>${items.slice(0, 100).map((e) => html`<tr><td><${Time} value=${e.at} /></td><td>${e.method}</td><td class="path">${e.path}</td><td>${e.status}</td><td>${e.keyName ?? ''}</td><td>${e.durationMs}</td><td>${e.region}</td></tr>`)}</tbody>
      </table><//>`;
    }}<//>
  </section>`;
}

function Delivery({ d }: { d: any }) {
  const act = useAction();
  const pretty = (() => {
    try {
      return JSON.stringify(JSON.parse(d.request?.body ?? ''), null, 2);
    } catch {
      return undefined;
    }
  })();
  return html`<li class="delivery" data-testid="delivery" data-event=${d.event?.type}>
    <details>
      <summary><strong>${d.event?.type}</strong> <${Badge} kind=${d.status}>${d.status}<//> → ${d.targetUrl} · ${d.attempts} attempt${d.attempts === 1 ? '' : 's'} · <${Time} value=${d.createdDateTime} /></summary>
      <dl class="kv">
        <dt>Delivery</dt><dd><code>${d.id}</code>${d.replayOf ? html` (replay of <code>${d.replayOf}</code>)` : ''}</dd>
        <dt>Event</dt><dd><code>${d.event?.id}</code> ${d.event?.state}${d.event?.dropReason ? ` (${d.event.dropReason})` : ''}</dd>
        ${d.subscription && html`<dt>Subscription</dt><dd><code>${d.subscription.id}</code> ${d.subscription.api} ${d.subscription.eventType}${d.subscription.hasSecret ? ' · signed' : ''}</dd>`}
        ${d.lastResponseStatus !== undefined && html`<dt>Last response</dt><dd>${d.lastResponseStatus}${d.lastResponseBody ? html` <code>${d.lastResponseBody}</code>` : ''}</dd>`}
        ${d.lastError && html`<dt>Last error</dt><dd>${d.lastError}</dd>`}
        ${d.nextAttemptDateTime && html`<dt>Next attempt</dt><dd><${Time} value=${d.nextAttemptDateTime} /></dd>`}
      </dl>
      <h3>Request headers</h3>
      <${Wide} label="Request headers"><pre data-testid="delivery-headers">${Object.entries(d.request?.headers ?? {}).map(([k, v]) => `${k}: ${v}`).join('\n') || '(not sent yet)'}</pre><//>
      <h3>Body, exactly as sent</h3>
      <${Wide} label="Request body"><pre data-testid="delivery-body">${d.request?.body ?? '(not built yet)'}</pre><//>
      ${pretty && pretty !== d.request?.body && html`<details><summary>Body, indented</summary><${Wide} label="Indented body"><pre>${pretty}</pre><//></details>`}
      <h3>Attempts</h3>
      ${(d.attemptLog ?? []).length === 0 ? html`<p class="muted">None yet.</p>` : html`<ol>${d.attemptLog.map((a: any) => html`<li><${Time} value=${a.dateTime} />: ${a.responseStatus ?? a.error} (${a.durationMs} ms)</li>`)}</ol>`}
      <button type="button" onClick=${() => act.run(() => admin('POST', `/_emulator/webhooks/deliveries/${enc(d.id)}/replay`), 'Replay queued')}>Replay</button>
      ${act.refusal && html`<${Refusal} status=${act.refusal.status} error=${act.refusal.error!} what="replay" />`}
    </details>
  </li>`;
}

function Deliveries() {
  const [type, setType] = useState('');
  const q = type ? `&eventType=${enc(type)}` : '';
  const list = useApi(() => admin('GET', `/_emulator/webhooks/deliveries?limit=50${q}`), [q]);
  return html`<section aria-labelledby="deliveries-h" class="card">
    <h2 id="deliveries-h">Webhook deliveries <span class="muted">(live)</span></h2>
    <label>Event type <input value=${type} placeholder="e.g. task_completed" onInput=${(e: Event) => setType((e.target as HTMLInputElement).value.trim())} /></label>
    <${Loaded} answer=${list.answer} what="deliveries">${(b: any) =>
      b.items.length === 0 ? html`<p class="muted">No deliveries yet. Subscribe with POST /v3/webhooks.</p>` : html`<ul class="deliveries">${b.items.map((d: any) => html`<${Delivery} d=${d} key=${d.id} />`)}</ul>`}<//>
  </section>`;
}

export function PanelPage() {
  return html`<h1>Emulator</h1>
    <div class="panel-grid">
      <${Clock} />
      <${Database} />
    </div>
    <${Deliveries} />
    <${Journal} />`;
}
