// Isolated instances in the panel (issue 40; docs/instances.md through /_emulator/instances):
// create one (fixture, clock, budgets), list them with their addresses and a link to each one's
// own console, delete. An instance has no instances of its own: its route answers 404, shown so.
import { useState } from 'preact/hooks';
import { html } from '../html';
import { admin, enc } from '../api';
import { useApi } from '../hooks';
import { useAction } from '../action';
import { inputValue } from '../forms';
import { Refusal, Wide, Time } from '../parts';
import { PanelNav, numberOr } from './panel-nav';

function CreateInstance({ reload }: { reload: () => void }) {
  const act = useAction();
  const [fixture, setFixture] = useState('');
  const [now, setNow] = useState('');
  const [frozen, setFrozen] = useState(false);
  const [standard, setStandard] = useState('');
  const [cheap, setCheap] = useState('');
  const submit = (e: Event) => {
    e.preventDefault();
    const body: Record<string, unknown> = {};
    if (fixture.trim()) body.fixture = fixture.trim();
    // datetime-local is a wall clock without a zone: sent as UTC, as the label says.
    if (now || frozen) body.clock = { ...(now ? { now: now.length === 16 ? `${now}:00Z` : `${now}Z` } : {}), ...(frozen ? { frozen: true } : {}) };
    const budgets: Record<string, unknown> = {};
    if (standard.trim()) budgets.standard = numberOr(standard);
    if (cheap.trim()) budgets.cheap = numberOr(cheap);
    if (Object.keys(budgets).length) body.budgets = budgets;
    void act.run(() => admin('POST', '/_emulator/instances', body), 'Instance created', reload);
  };
  return html`<section aria-labelledby="new-instance-h" class="card">
    <h2 id="new-instance-h">Create an instance</h2>
    <form class="inline" onSubmit=${submit} novalidate>
      <span class="pair"><label for="instance-fixture">Fixture</label>
      <input id="instance-fixture" list="instance-fixtures" placeholder="the server's own" value=${fixture} onInput=${inputValue(setFixture)} /></span>
      <datalist id="instance-fixtures"><option value="demo"></option><option value="none"></option></datalist>
      <span class="pair"><label for="instance-now">Clock (UTC)</label>
      <input id="instance-now" type="datetime-local" step="1" value=${now} onInput=${inputValue(setNow)} /></span>
      <label class="check"><input type="checkbox" checked=${frozen} onChange=${(e: Event) => setFrozen((e.target as HTMLInputElement).checked)} /> frozen</label>
      <span class="pair"><label for="instance-standard">Standard budget</label>
      <input id="instance-standard" type="number" min="1" size="7" placeholder="server's" value=${standard} onInput=${inputValue(setStandard)} /></span>
      <span class="pair"><label for="instance-cheap">Cheap budget</label>
      <input id="instance-cheap" type="number" min="1" size="7" placeholder="server's" value=${cheap} onInput=${inputValue(setCheap)} /></span>
      <button type="submit">Create instance</button>
    </form>
    ${act.refusal && html`<${Refusal} status=${act.refusal.status} error=${act.refusal.error!} what="new instance" />`}
  </section>`;
}

function InstanceRow({ i, reload }: { i: any; reload: () => void }) {
  const act = useAction();
  return html`<tr role="row" data-instance=${i.id}>
    <td role="cell" class="stack-title"><code>${i.id}</code></td>
    <td role="cell" data-label="Fixture">${i.fixture}</td>
    <td role="cell" data-label="Console">${(['US', 'EU'] as const).map((r) => html`<div>${r} <a href=${`${i.baseUrls[r]}/app`} target="_blank" rel="noopener">${i.baseUrls[r]}</a></div>`)}</td>
    <td role="cell" data-label="MCP" class="path">${(['US', 'EU'] as const).map((r) => html`<div>${i.mcpUrls[r]}</div>`)}</td>
    <td role="cell" data-label="Created"><${Time} value=${i.createdAt} /></td>
    <td role="cell" data-label="Last request"><${Time} value=${i.lastRequestAt} /></td>
    <td role="cell" data-label="Stops at"><${Time} value=${i.expiresAt} /></td>
    <td role="cell" data-focus-group><button type="button" class="small" onClick=${() => confirm(`Delete the instance ${i.id}? Its data is gone with it.`) && act.run(() => admin('DELETE', `/_emulator/instances/${enc(i.id)}`), `Instance ${i.id} deleted`, reload)}>Delete<span class="sr-only"> instance ${i.id}</span></button>
      ${act.refusal && html`<${Refusal} status=${act.refusal.status} error=${act.refusal.error!} what="delete" />`}</td>
  </tr>`;
}

export function InstancesPage({ path }: { path: string }) {
  const list = useApi(() => admin('GET', '/_emulator/instances'), [], 'none');
  const a = list.answer;
  return html`<h1>Emulator: instances</h1>
    <${PanelNav} path=${path} />
    <p>Each instance is a whole emulator of its own (data, clock, budgets, keys, webhooks) on its own ports, in this process; one that gets no request for its time to live is stopped.</p>
    ${a && a.status === 404
      ? html`<p data-testid="no-instances-here">This emulator is itself an instance: instances do not nest. Make more from the emulator that made it.</p>`
      : html`<${CreateInstance} reload=${list.reload} />
        <section aria-labelledby="instances-h">
          <h2 id="instances-h">Instances</h2>
          ${!a ? html`<p class="muted" aria-busy="true">Loading…</p>` : !a.ok ? html`<${Refusal} status=${a.status} error=${a.error!} what="instances" />`
            : html`<p class="muted">${a.body.items.length} of at most ${a.body.maxInstances}; each stopped after ${Math.round(a.body.ttlSeconds / 60)} min without a request.</p>
              ${a.body.items.length === 0 ? html`<p class="muted">None yet.</p>` : html`<${Wide} label="Instances"><table class="stack-table" role="table" data-testid="instances">
                <thead role="rowgroup"><tr role="row"><th scope="col" role="columnheader">Id</th><th scope="col" role="columnheader">Fixture</th><th scope="col" role="columnheader">Addresses (console)</th><th scope="col" role="columnheader">MCP</th><th scope="col" role="columnheader">Created</th><th scope="col" role="columnheader">Last request</th><th scope="col" role="columnheader">Stops at</th><th scope="col" role="columnheader"><span class="sr-only">Actions</span></th></tr></thead>
                <tbody role="rowgroup">${a.body.items.map((i: any) => html`<${InstanceRow} i=${i} reload=${list.reload} key=${i.id} />`)}</tbody>
              </table><//>`}`}
        </section>`}`;
}
