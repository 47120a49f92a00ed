// Fault rules (docs/faults.md) in the panel (issue 40): the list in the order rules are tried,
// with hits and what is left; a form with every option POST /_emulator/faults takes; delete one
// or all. The form sends what is filled in and the route judges it: a refusal is the route's own.
import { useState } from 'preact/hooks';
import { html } from '../html';
import { admin, enc } from '../api';
import { useApi } from '../hooks';
import { useAction } from '../action';
import { inputValue } from '../forms';
import { Refusal, Wide, Badge } from '../parts';
import { PanelNav, numberOr, panelStamp, usePanelFeed } from './panel-nav';

const METHODS = ['', 'GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];

function describe(r: any): string {
  const target = r.tool !== undefined ? `MCP tool ${r.tool}` : `${r.method && r.method !== '*' ? r.method : 'any method'} ${r.path}`;
  return r.region ? `${target} (${r.region} only)` : target;
}

function action(r: any): string {
  const parts: string[] = [];
  if (r.delayMs !== undefined) parts.push(`wait ${r.delayMs} ms`);
  if (r.drop) parts.push('drop the connection');
  if (r.status !== undefined) parts.push(`answer ${r.status}${r.code ? ` ${r.code}` : ''}${r.retryAfter !== undefined ? `, Retry-After ${r.retryAfter}` : ''}${r.bucket ? `, bucket ${r.bucket}` : ''}`);
  return parts.join(', then ');
}

function AddFault({ reload }: { reload: () => void }) {
  const act = useAction();
  const [kind, setKind] = useState<'path' | 'tool'>('path');
  const [v, setV] = useState<Record<string, string>>({ method: '', path: '/v3/**', tool: '', region: '', does: 'status', status: '503', code: '', message: '', retryAfter: '', bucket: '', delayMs: '', times: '', probability: '', seed: '' });
  const set = (k: string) => inputValue((x) => setV((old) => ({ ...old, [k]: x })));
  const field = (k: string, label: string, attrs: Record<string, unknown> = {}) =>
    html`<span class="pair"><label for=${`fault-${k}`}>${label}</label><input id=${`fault-${k}`} value=${v[k]} onInput=${set(k)} ...${attrs} /></span>`;
  const submit = (e: Event) => {
    e.preventDefault();
    const body: Record<string, unknown> = {};
    if (kind === 'path') {
      body.path = v.path;
      if (v.method) body.method = v.method;
    } else body.tool = v.tool;
    if (v.region) body.region = v.region;
    if (v.does === 'status') {
      body.status = numberOr(v.status);
      if (v.code.trim()) body.code = v.code.trim();
      if (v.message.trim()) body.message = v.message;
      if (v.retryAfter.trim()) body.retryAfter = numberOr(v.retryAfter);
      if (v.bucket) body.bucket = v.bucket;
    }
    if (v.does === 'drop') body.drop = true;
    for (const k of ['delayMs', 'times', 'probability', 'seed']) if (v[k].trim()) body[k] = numberOr(v[k]);
    void act.run(() => admin('POST', '/_emulator/faults', body), 'Fault rule added', reload);
  };
  return html`<section aria-labelledby="add-fault-h" class="card">
    <h2 id="add-fault-h">Add a fault rule</h2>
    <form class="stack-form" onSubmit=${submit} novalidate>
      <fieldset class="inline">
        <legend>Which calls</legend>
        <label class="check"><input type="radio" name="fault-kind" checked=${kind === 'path'} onChange=${() => setKind('path')} /> a path</label>
        <label class="check"><input type="radio" name="fault-kind" checked=${kind === 'tool'} onChange=${() => setKind('tool')} /> an MCP tool</label>
        ${kind === 'path'
          ? html`<span class="pair"><label for="fault-method">Method</label>
              <select id="fault-method" value=${v.method} onChange=${set('method')}>${METHODS.map((m) => html`<option value=${m}>${m || 'any'}</option>`)}</select></span>
              ${field('path', 'Path pattern', { placeholder: '/v3/checklists/*', size: 28 })}`
          : field('tool', 'Tool name', { placeholder: 'get_task' })}
        <span class="pair"><label for="fault-region">Region</label>
        <select id="fault-region" value=${v.region} onChange=${set('region')}><option value="">both</option><option value="US">US</option><option value="EU">EU</option></select></span>
      </fieldset>
      <fieldset class="inline">
        <legend>What happens</legend>
        <span class="pair"><label for="fault-does">Answer</label>
        <select id="fault-does" value=${v.does} onChange=${set('does')}>
          <option value="status">an error status</option>
          <option value="delay">as usual, after a delay</option>
          <option value="drop">none: drop the connection</option>
        </select></span>
        ${v.does === 'status' &&
        html`${field('status', 'Status', { type: 'number', min: 400, max: 599, size: 5 })}
          ${field('code', 'Code', { placeholder: 'default by status' })}
          ${field('message', 'Message', { placeholder: 'default by status' })}
          ${field('retryAfter', 'Retry-After (s)', { type: 'number', min: 0, size: 6 })}
          <span class="pair"><label for="fault-bucket">Bucket (429)</label>
          <select id="fault-bucket" value=${v.bucket} onChange=${set('bucket')}><option value="">default</option><option value="standard">standard</option><option value="cheap">cheap</option></select></span>`}
        ${field('delayMs', v.does === 'delay' ? 'Delay (ms)' : 'Delay first (ms)', { type: 'number', min: 0, size: 7 })}
      </fieldset>
      <fieldset class="inline">
        <legend>How often</legend>
        ${field('times', 'Times (empty: until removed)', { type: 'number', min: 1, size: 5 })}
        ${field('probability', 'Probability (0 to 1)', { type: 'number', min: 0, max: 1, step: 'any', size: 5 })}
        ${field('seed', 'Seed', { type: 'number', min: 0, size: 8 })}
      </fieldset>
      <button type="submit">Add fault rule</button>
    </form>
    ${act.refusal && html`<${Refusal} status=${act.refusal.status} error=${act.refusal.error!} what="fault rule" />`}
  </section>`;
}

function FaultRow({ r, reload }: { r: any; reload: () => void }) {
  const act = useAction();
  return html`<tr role="row" data-fault=${r.id}>
    <td role="cell" class="stack-title"><code>${r.id}</code></td>
    <td role="cell" data-label="Calls" class="path">${describe(r)}</td>
    <td role="cell" data-label="Does">${action(r)}</td>
    <td role="cell" data-label="Chance">${r.probability !== undefined ? `${r.probability} (seed ${r.seed})` : 'always'}</td>
    <td role="cell" data-label="Lasts">${r.remaining !== undefined ? `${r.remaining} left` : 'until removed'}</td>
    <td role="cell" data-label="Hits" data-testid="fault-hits">${r.hits}</td>
    <td role="cell" data-focus-group><button type="button" class="small" onClick=${() => act.run(() => admin('DELETE', `/_emulator/faults/${enc(r.id)}`), `Fault rule ${r.id} deleted`, reload)}>Delete<span class="sr-only"> fault rule ${r.id}</span></button>
      ${act.refusal && html`<${Refusal} status=${act.refusal.status} error=${act.refusal.error!} what="delete" />`}</td>
  </tr>`;
}

export function FaultsPage({ path }: { path: string }) {
  const live = usePanelFeed();
  // A rule's hits move with the journal (every faulted call is journaled).
  const list = useApi(() => admin('GET', '/_emulator/faults'), [], panelStamp(live));
  const act = useAction();
  return html`<h1>Emulator: fault rules</h1>
    <${PanelNav} path=${path} />
    <p>Matching calls are delayed, answered with an error or dropped before they reach the API. Rules are tried in this order; the first that matches answers. A reset clears them.</p>
    <${AddFault} reload=${list.reload} />
    <section aria-labelledby="faults-h">
      <h2 id="faults-h">Rules</h2>
      ${!list.answer ? html`<p class="muted" aria-busy="true">Loading…</p>` : !list.answer.ok ? html`<${Refusal} status=${list.answer.status} error=${list.answer.error!} what="fault rules" />` : list.answer.body.items.length === 0
        ? html`<p class="muted" data-testid="no-faults">No fault rules: every call is answered as usual.</p>`
        : html`<${Wide} label="Fault rules"><table class="stack-table" role="table" data-testid="faults">
            <thead role="rowgroup"><tr role="row"><th scope="col" role="columnheader">Rule</th><th scope="col" role="columnheader">Calls</th><th scope="col" role="columnheader">Does</th><th scope="col" role="columnheader">Chance</th><th scope="col" role="columnheader">Lasts</th><th scope="col" role="columnheader">Hits</th><th scope="col" role="columnheader"><span class="sr-only">Actions</span></th></tr></thead>
            <tbody role="rowgroup">${list.answer.body.items.map((r: any) => html`<${FaultRow} r=${r} key=${r.id} reload=${list.reload} />`)}</tbody>
          </table><//>
          <button type="button" onClick=${() => confirm('Delete every fault rule?') && act.run(() => admin('DELETE', '/_emulator/faults'), 'Every fault rule deleted', list.reload)}>Delete every rule</button>
          ${act.refusal && html`<${Refusal} status=${act.refusal.status} error=${act.refusal.error!} what="fault rules" />`}`}
      ${list.answer?.ok && list.answer.body.items.some((r: any) => r.drop) ? html`<p><${Badge} kind="halted">drop<//> A dropped call gets no answer at all: clients see a socket error.</p>` : ''}
    </section>`;
}
