// The panel's overview (issue 40): each workspace's rate budgets spent this hour and its webhook
// deliveries pending and failing, the database's size (GET /_emulator/overview), and the
// instances (GET /_emulator/instances). The clock is the card beside it. Re-read when the panel
// feed says data or the journal moved (spending a budget journals a request).
import { html } from '../html';
import { admin } from '../api';
import { useApi } from '../hooks';
import { emulatorNow, type PanelState } from '../live';
import { Refusal, Wide, Badge, when } from '../parts';
import { panelStamp } from './panel-nav';

const bytes = (n: number) => (n >= 1 << 20 ? `${(n / (1 << 20)).toFixed(1)} MB` : `${Math.max(1, Math.round(n / 1024))} KB`);

function Budget({ b }: { b: any }) {
  const pct = b.limit ? Math.round((100 * b.used) / b.limit) : 0;
  return html`<span class="progress"><progress max=${b.limit} value=${b.used} aria-hidden="true"></progress> ${b.used} of ${b.limit}${pct >= 90 ? html` <${Badge} kind="failed">${pct}%<//>` : ''}</span>`;
}

export function Overview({ live }: { live?: PanelState }) {
  const ov = useApi(() => admin('GET', '/_emulator/overview'), [], panelStamp(live));
  const inst = useApi(() => admin('GET', '/_emulator/instances'), [], live?.data);
  const a = ov.answer;
  return html`<section aria-labelledby="overview-h" class="card" data-testid="overview">
    <h2 id="overview-h">Overview</h2>
    ${!a ? html`<p class="muted" aria-busy="true">Loading…</p>` : !a.ok ? html`<${Refusal} status=${a.status} error=${a.error!} what="overview" />` : html`
      <dl class="kv">
        <dt>Clock</dt><dd data-testid="overview-clock">${when(live ? new Date(emulatorNow(live)).toISOString() : a.body.now)} ${(live?.clock.frozen ?? a.body.frozen) ? '(frozen)' : '(running)'} <a href="#clock-h">set or move it</a></dd>
        <dt>Webhook deliveries</dt><dd data-testid="overview-deliveries">${a.body.deliveries.pending} pending${a.body.deliveries.retrying ? ` (${a.body.deliveries.retrying} retrying after a failed attempt)` : ''}, ${a.body.deliveries.failed} failed, ${a.body.deliveries.delivered} delivered</dd>
        <dt>Instances</dt><dd data-testid="overview-instances">${!inst.answer ? '…' : inst.answer.status === 404 ? 'none (this emulator is an instance)' : inst.answer.ok ? html`<a href="/app/emulator/instances">${inst.answer.body.items.length} running</a> of at most ${inst.answer.body.maxInstances}` : inst.answer.error?.code}</dd>
        <dt>Database</dt><dd data-testid="overview-database">${bytes(a.body.database.bytes)} (${a.body.database.storage}${a.body.database.freeBytes ? `, ${bytes(a.body.database.freeBytes)} free` : ''})</dd>
      </dl>
      <h3>Rate budgets this hour, by workspace</h3>
      <${Wide} label="Workspaces"><table data-testid="overview-workspaces">
        <thead><tr><th scope="col">Workspace</th><th scope="col">Region</th><th scope="col">Standard</th><th scope="col">Cheap</th><th scope="col">Deliveries pending</th><th scope="col">Failed</th></tr></thead>
        <tbody>${a.body.workspaces.map((w: any) => html`<tr data-workspace=${w.key}><td>${w.name}</td><td>${w.region}</td><td><${Budget} b=${w.budgets.standard} /></td><td><${Budget} b=${w.budgets.cheap} /></td>
          <td>${w.deliveries.pending}${w.deliveries.retrying ? ` (${w.deliveries.retrying} retrying)` : ''}</td><td>${w.deliveries.failed ? html`<${Badge} kind="failed">${w.deliveries.failed}<//>` : 0}</td></tr>`)}</tbody>
      </table><//>
      <p class="muted">Budget windows end on the hour (UTC); a reset empties them.</p>`}
  </section>`;
}
