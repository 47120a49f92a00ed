// Webhook subscriptions (Administrators; a member key sees the API's 403): the list, add and
// delete, and each subscription's deliveries, read through the control routes, so shown
// where the admin gate lets the panel in.
import { useState } from 'preact/hooks';
import { html } from '../html';
import { v3, admin, enc } from '../api';
import { useApi, useSession } from '../hooks';
import { useAction } from '../action';
import { config } from '../config';
import { usePanelLive } from '../live';
import { Loaded, Refusal, Badge, Time } from '../parts';

import { EVENT_TYPES, SCOPE_TYPES } from '../../../domain/webhooks/events';

function Deliveries({ id }: { id: string }) {
  // Deliveries are the sender's writes, which no page feed carries: the panel's feed says when they move.
  const panel = usePanelLive(true);
  const list = useApi(() => admin('GET', `/_emulator/webhooks/deliveries?subscription=${enc(id)}&limit=20`), [id], panel?.data);
  return html`<${Loaded} answer=${list.answer} what="deliveries">${(b: any) =>
    b.items.length === 0
      ? html`<p class="muted">No deliveries yet.</p>`
      : html`<ul class="deliveries">${b.items.map((d: any) => html`<li data-testid="subscription-delivery" data-event=${d.event?.type}><strong>${d.event?.type}</strong> <${Badge} kind=${d.status}>${d.status}<//> · ${d.attempts} attempt${d.attempts === 1 ? '' : 's'} · <${Time} value=${d.createdDateTime} />${d.lastResponseStatus !== undefined ? ` · answered ${d.lastResponseStatus}` : ''}</li>`)}</ul>`}<//>`;
}

function Subscription({ w }: { w: any }) {
  const act = useAction();
  const s = useSession();
  const canSeeDeliveries = config.admin === 'open' || (config.admin === 'token' && !!s.token);
  return html`<li class="card" data-testid="subscription">
    <p><strong>${w.eventType}</strong> → <code>${w.targetUrl}</code> </p>
    <dl class="kv" data-testid="subscription-facts"><dt>Scope</dt><dd>${w.scope?.type}${w.scope?.key ? html` <code>${w.scope.key}</code>` : ''}</dd><dt>Subscription id</dt><dd><code>${w.id}</code></dd></dl>
    <button type="button" class="small" onClick=${() => act.run(() => v3('DELETE', `/v3/webhooks/${enc(w.id)}`), 'Subscription deleted')}>Delete<span class="sr-only"> subscription ${w.id}</span></button>
    ${act.refusal && html`<${Refusal} status=${act.refusal.status} error=${act.refusal.error!} what="delete" />`}
    <h3>Deliveries</h3>
    ${canSeeDeliveries ? html`<${Deliveries} id=${w.id} />` : html`<p class="muted">${config.admin === 'off' ? 'Deliveries are read through the control routes, which are off (--no-admin).' : 'Sign in to the emulator panel to see deliveries.'}</p>`}
  </li>`;
}

export function WebhooksPage() {
  const act = useAction();
  const [eventType, setEventType] = useState('task_completed');
  const [url, setUrl] = useState('');
  const [secret, setSecret] = useState('');
  const [scopeType, setScopeType] = useState('');
  const [scopeKey, setScopeKey] = useState('');
  const { answer } = useApi(() => v3('GET', '/v3/webhooks?pageSize=100'), []);
  return html`<h1>Webhooks</h1>
    <form class="inline card" aria-label="New subscription" onSubmit=${(e: Event) => {
      e.preventDefault();
      const body: Record<string, unknown> = { eventType, targetUrl: url };
      if (secret) body.secret = secret;
      if (scopeType) body.scope = scopeType === 'Workspace' ? { type: scopeType } : { type: scopeType, key: scopeKey.trim() };
      void act.run(() => v3('POST', '/v3/webhooks', body), 'Subscription added', () => (setUrl(''), setSecret('')));
    }}>
      <label for="hook-event">Event type</label>
      <select id="hook-event" value=${eventType} onChange=${(e: Event) => setEventType((e.target as HTMLSelectElement).value)}>${EVENT_TYPES.map((t) => html`<option value=${t}>${t}</option>`)}</select>
      <label for="hook-scope">Scope</label>
      <select id="hook-scope" value=${scopeType} onChange=${(e: Event) => setScopeType((e.target as HTMLSelectElement).value)}>${['', ...SCOPE_TYPES].map((t) => html`<option value=${t}>${t || 'default (Workspace)'}</option>`)}</select>
      ${scopeType && scopeType !== 'Workspace' && html`<label for="hook-scope-key">${scopeType} key</label>
        <input id="hook-scope-key" value=${scopeKey} onInput=${(e: Event) => setScopeKey((e.target as HTMLInputElement).value)} />`}
      <label for="hook-url">Target URL</label>
      <input id="hook-url" type="url" value=${url} onInput=${(e: Event) => setUrl((e.target as HTMLInputElement).value)} />
      <label for="hook-secret">Secret (optional)</label>
      <input id="hook-secret" type="password" autocomplete="off" value=${secret} onInput=${(e: Event) => setSecret((e.target as HTMLInputElement).value)} />
      <button type="submit" aria-disabled=${act.busy ? 'true' : undefined}>Add subscription</button>
    </form>
    ${act.refusal && html`<${Refusal} status=${act.refusal.status} error=${act.refusal.error!} what="new subscription" />`}
    <${Loaded} answer=${answer} what="GET /v3/webhooks">
      ${(b: any) => (b.items.length === 0 ? html`<p class="muted">No subscriptions.</p>` : html`<ul class="subscriptions">${b.items.map((w: any) => html`<${Subscription} w=${w} key=${w.id} />`)}</ul>`)}
    <//>`;
}
