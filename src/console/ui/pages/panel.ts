// The emulator's own panel (/_emulator control routes): clock, reset, export and import,
// the live request journal, webhook deliveries with their exact bodies, headers (the
// signature), attempts, and replay. With --admin-token every call carries the token.
import { useState } from 'preact/hooks';
import { html } from '../html';
import { DateTimePicker, wallToUtc } from '../pickers';
import { admin, enc } from '../api';
import { useApi, useSession } from '../hooks';
import { session } from '../session';
import { useAction } from '../action';
import { emulatorNow, type PanelState } from '../live';
import { Refusal, Badge, Time, Wide, when } from '../parts';
import { saveDownload } from '../files';
import { PanelNav, signIn, usePanelFeed } from './panel-nav';
import { Overview } from './overview';

export function SignIn() {
  const s = useSession();
  const [token, setToken] = useState('');
  const [refused, setRefused] = useState<any>(undefined);
  return html`<h1>Sign in to the emulator panel</h1>
    <p>This emulator runs with <code>--admin-token</code>: the panel needs that token.</p>
    <form onSubmit=${async (e: Event) => {
      e.preventDefault();
      const res = await signIn(token);
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

/** The clock as the panel feed states it: rendered in place, changed only when someone moves the clock. */
function Clock({ live }: { live?: PanelState }) {
  const act = useAction();
  const [now, setNow] = useState('');
  const [wall, setWall] = useState('');
  const [amount, setAmount] = useState('1');
  const [unit, setUnit] = useState('days');
  const c = live?.clock;
  return html`<section aria-labelledby="clock-h" class="card">
    <h2 id="clock-h">Clock</h2>
    <p>Now <strong><time datetime=${c ? new Date(emulatorNow(live)).toISOString() : ''} data-testid="clock-now">${c ? when(new Date(emulatorNow(live)).toISOString()) : '…'}</time></strong> ${c?.frozen ? html`<${Badge} kind="halted">frozen<//>` : html`<${Badge} kind="muted">running<//>`} <span class="muted">(${c ? Math.round(c.offsetMs / 1000) : 0} s from real time${c?.frozen ? ' when frozen' : ''})</span></p>
    <button type="button" disabled=${!c} onClick=${() => act.run(() => admin('PUT', '/_emulator/clock', { frozen: !c!.frozen }), c!.frozen ? 'Clock running' : 'Clock frozen')}>${c?.frozen ? 'Unfreeze' : 'Freeze'}</button>
    <form class="inline" onSubmit=${(e: Event) => {
      e.preventDefault();
      void act.run(() => admin('POST', '/_emulator/clock/advance', { [unit]: Number(amount) }), `Clock advanced ${amount} ${unit}`);
    }}>
      <label for="adv-amount">Advance by</label>
      <input id="adv-amount" type="number" min="0" step="any" value=${amount} onInput=${(e: Event) => setAmount((e.target as HTMLInputElement).value)} />
      <label for="adv-unit" class="sr-only">Unit</label>
      <select id="adv-unit" value=${unit} onChange=${(e: Event) => setUnit((e.target as HTMLSelectElement).value)}>${['seconds', 'minutes', 'hours', 'days'].map((u) => html`<option value=${u}>${u}</option>`)}</select>
      <button type="submit">Advance</button>
    </form>
    <form class="inline" onSubmit=${(e: Event) => {
      e.preventDefault();
      void act.run(() => admin('PUT', '/_emulator/clock', { now }), `Clock set to ${now}`);
    }}>
      <label for="set-now">Set to (ISO 8601)</label>
      <input id="set-now" placeholder="2026-01-31T09:00:00Z" value=${now} onInput=${(e: Event) => setNow((e.target as HTMLInputElement).value)} />
      <button type="submit">Set clock</button>
    </form>
    <form class="inline" onSubmit=${(e: Event) => {
      e.preventDefault();
      const at = wallToUtc(wall) ?? wall;
      void act.run(() => admin('PUT', '/_emulator/clock', { now: at }), `Clock set to ${at}`);
    }}>
      <${DateTimePicker} id="set-wall" label="Or pick a time" wall=${wall} onWall=${setWall} />
      <button type="submit">Move the clock there</button>
    </form>
    ${act.refusal && html`<${Refusal} status=${act.refusal.status} error=${act.refusal.error!} what="clock" />`}
  </section>`;
}

function Database() {
  const act = useAction();
  const exportDb = async () => {
    const a = await saveDownload('/_emulator/export', session.token ? { Authorization: `Bearer ${session.token}` } : {}, 'wfe.sqlite');
    return act.run(async () => a, a.ok ? `Exported ${a.name}` : '');
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

const PAGE = 50;

/** Previous and next over a list read whole (the journal keeps 1,000 entries; deliveries are read up to 1,000). */
function Pager({ label, total, page, setPage }: { label: string; total: number; page: number; setPage: (n: number) => void }) {
  const last = Math.max(0, Math.ceil(total / PAGE) - 1);
  return html`<nav class="pager" aria-label=${`${label} pages`}>
    <button type="button" class="small" disabled=${page <= 0} onClick=${() => setPage(page - 1)}>Previous<span class="sr-only"> ${label}</span></button>
    <span>${total === 0 ? 'none' : `${page * PAGE + 1}–${Math.min(total, (page + 1) * PAGE)} of ${total}`}</span>
    <button type="button" class="small" disabled=${page >= last} onClick=${() => setPage(page + 1)}>Next<span class="sr-only"> ${label}</span></button>
  </nav>`;
}

const statusMatches = (want: string, status: number) => !want || (/^[1-5]xx$/i.test(want) ? String(status)[0] === want[0] : String(status) === want.trim());

function Journal({ live }: { live?: PanelState }) {
  const [mine, setMine] = useState(false);
  const [key, setKey] = useState('');
  const [route, setRoute] = useState('');
  const [status, setStatus] = useState('');
  const [page, setPage] = useState(0);
  const j = useApi(() => admin('GET', `/_emulator/journal?limit=1000${mine ? '&console=true' : ''}`), [mine], mine ? live?.journalWithConsole : live?.journal);
  const filter = (f: (v: string) => void) => (e: Event) => {
    f((e.target as HTMLInputElement).value);
    setPage(0);
  };
  return html`<section aria-labelledby="journal-h" class="card">
    <h2 id="journal-h">Request journal <span class="muted">(live)</span></h2>
    <form class="filters" aria-label="Filter the journal" onSubmit=${(e: Event) => e.preventDefault()}>
      <label>Key <input value=${key} onInput=${filter(setKey)} placeholder="key name" /></label>
      <label>Route <input value=${route} onInput=${filter(setRoute)} placeholder="/v3/checklists" /></label>
      <label>Status <input value=${status} onInput=${filter(setStatus)} placeholder="200 or 4xx" size="6" /></label>
      <label class="check"><input type="checkbox" checked=${mine} onChange=${(e: Event) => (setMine((e.target as HTMLInputElement).checked), setPage(0))} /> show the console's own requests</label>
    </form>
    ${!j.answer ? html`<p class="muted" aria-busy="true">Loading…</p>` : !j.answer.ok ? html`<${Refusal} status=${j.answer.status} error=${j.answer.error!} what="journal" />` : (() => {
      const items = (j.answer.body.items as any[]).filter((e) => (!key || (e.keyName ?? '').toLowerCase().includes(key.toLowerCase())) && (!route || e.path.includes(route)) && statusMatches(status, e.status));
      const shown = items.slice(page * PAGE, (page + 1) * PAGE);
      return html`<${Pager} label="journal" total=${items.length} page=${page} setPage=${setPage} />
        <${Wide} label="Request journal"><table data-testid="journal">
        <thead><tr><th scope="col">At</th><th scope="col">Method</th><th scope="col">Path</th><th scope="col">Status</th><th scope="col">Key</th><th scope="col">ms</th><th scope="col">Region</th></tr></thead>
        <tbody>${shown.map((e) => html`<tr key=${e.requestId + e.at}><td><${Time} value=${e.at} /></td><td>${e.method}</td><td class="path">${e.path}${e.console ? html` <${Badge} kind="muted">console<//>` : ''}</td><td>${e.status}</td><td>${e.keyName ?? ''}</td><td>${e.durationMs}</td><td>${e.region}</td></tr>`)}</tbody>
      </table><//>`;
    })()}
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

const DELIVERY_STATUSES = ['', 'pending', 'delivered', 'failed', 'dropped'];

function Deliveries({ live }: { live?: PanelState }) {
  const [type, setType] = useState('');
  const [status, setStatus] = useState('');
  const [subscription, setSubscription] = useState('');
  const [page, setPage] = useState(0);
  const q = new URLSearchParams({ limit: '1000' });
  if (type) q.set('eventType', type);
  if (status) q.set('status', status);
  if (subscription) q.set('subscription', subscription);
  const list = useApi(() => admin('GET', `/_emulator/webhooks/deliveries?${q}`), [q.toString()], live?.data);
  const filter = (f: (v: string) => void) => (e: Event) => {
    f((e.target as HTMLInputElement).value.trim());
    setPage(0);
  };
  return html`<section aria-labelledby="deliveries-h" class="card">
    <h2 id="deliveries-h">Webhook deliveries <span class="muted">(live)</span></h2>
    <form class="filters" aria-label="Filter deliveries" onSubmit=${(e: Event) => e.preventDefault()}>
      <label>Event type <input value=${type} placeholder="e.g. task_completed" onInput=${filter(setType)} /></label>
      <label>Status <select value=${status} onChange=${filter(setStatus)}>${DELIVERY_STATUSES.map((x) => html`<option value=${x}>${x || 'any'}</option>`)}</select></label>
      <label>Subscription <input value=${subscription} placeholder="subscription id" onInput=${filter(setSubscription)} /></label>
    </form>
    ${!list.answer ? html`<p class="muted" aria-busy="true">Loading…</p>` : !list.answer.ok ? html`<${Refusal} status=${list.answer.status} error=${list.answer.error!} what="deliveries" />` : list.answer.body.items.length === 0
      ? html`<p class="muted">No deliveries yet. Subscribe with POST /v3/webhooks.</p>`
      : html`<${Pager} label="deliveries" total=${list.answer.body.items.length} page=${page} setPage=${setPage} />
        <ul class="deliveries">${list.answer.body.items.slice(page * PAGE, (page + 1) * PAGE).map((d: any) => html`<${Delivery} d=${d} key=${d.id} />`)}</ul>`}
  </section>`;
}

export function PanelPage() {
  const live = usePanelFeed();
  return html`<h1>Emulator</h1>
    <${PanelNav} path="/app/emulator" />
    <${Overview} live=${live} />
    <div class="panel-grid">
      <${Clock} live=${live} />
      <${Database} />
    </div>
    <${Deliveries} live=${live} />
    <${Journal} live=${live} />`;
}
