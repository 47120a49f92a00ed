// API keys in the panel (issue 40; spec v3 5.2 through /_emulator/keys): every key with its
// state (expired and revoked marked), create (the key shown this once), edit name, acting
// member and expiry, revoke. The routes judge every change: a refusal is theirs, word for word.
import { useState } from 'preact/hooks';
import { html } from '../html';
import { admin, v3 } from '../api';
import { useApi } from '../hooks';
import { useAction, announce } from '../action';
import { inputValue } from '../forms';
import { Refusal, Wide, Badge, Time } from '../parts';
import { PanelNav, panelStamp, usePanelFeed } from './panel-nav';

const STATE_KIND: Record<string, string> = { active: 'Complete', revoked: 'failed', expired: 'Overdue', unavailable: 'muted' };

const actsAsText = (a: any) => (a.type === 'workspace' ? 'the workspace' : `${a.name} (${a.role}, member ${a.id})`);

/** Members the acting key can see (GET /v3/members), offered while typing a member id. */
function MemberOptions({ id }: { id: string }) {
  const members = useApi(() => v3('GET', '/v3/members?pageSize=100'), [], 'none');
  return html`<datalist id=${id}>${members.answer?.ok && members.answer.body.items.filter((m: any) => m.isActive && m.role !== 'Guest').map((m: any) => html`<option value=${String(m.id)}>${m.name ?? m.email} (${m.role})</option>`)}</datalist>`;
}

function actsAsBody(type: string, member: string): unknown {
  if (type === 'workspace') return { type: 'workspace' };
  const n = Number(member.trim());
  return { type: 'member', id: member.trim() === '' || Number.isNaN(n) ? member : n };
}

function CreateKey({ workspaces, reload }: { workspaces: any[]; reload: () => void }) {
  const act = useAction();
  const [workspace, setWorkspace] = useState('');
  const [name, setName] = useState('');
  const [type, setType] = useState('member');
  const [member, setMember] = useState('');
  const [expires, setExpires] = useState('');
  const [own, setOwn] = useState('');
  const [made, setMade] = useState<any>(undefined);
  const submit = (e: Event) => {
    e.preventDefault();
    const body: Record<string, unknown> = { workspace: workspace || workspaces[0]?.key, name, actsAs: actsAsBody(type, member) };
    if (expires) body.expiresOn = expires;
    if (own) body.key = own;
    void act.run(() => admin('POST', '/_emulator/keys', body), `API key ${name} created`, (a) => {
      setMade(a.body);
      setName('');
      setOwn('');
      reload();
    });
  };
  return html`<section aria-labelledby="new-key-h" class="card">
    <h2 id="new-key-h">Create an API key</h2>
    ${made &&
    html`<div class="secret" role="region" aria-labelledby="secret-h" data-testid="new-key">
      <h3 id="secret-h">Key ${made.apiKey.name} created: copy it now</h3>
      <p>This is the only time the key is shown; the emulator keeps only its digest.</p>
      <p><code data-testid="new-key-value">${made.key}</code>
        <button type="button" class="small" onClick=${() => navigator.clipboard?.writeText(made.key).then(() => announce('Key copied'), () => announce('Copy it by hand: the browser refused the clipboard'))}>Copy<span class="sr-only"> the new key</span></button></p>
      <p class="muted">Made as ${made.by.name}${made.notified.length ? `; notified ${made.notified.map((n: any) => n.name).join(', ')}` : ''}.</p>
      <button type="button" class="small" onClick=${() => setMade(undefined)}>I have copied it</button>
    </div>`}
    <form class="inline" onSubmit=${submit} novalidate>
      <span class="pair"><label for="key-workspace">Workspace</label>
      <select id="key-workspace" value=${workspace || workspaces[0]?.key} onChange=${inputValue(setWorkspace)}>${workspaces.map((w) => html`<option value=${w.key}>${w.name} (${w.region})</option>`)}</select></span>
      <span class="pair"><label for="key-name">Key name</label>
      <input id="key-name" value=${name} onInput=${inputValue(setName)} maxlength="200" /></span>
      <span class="pair"><label for="key-acts">Acts as</label>
      <select id="key-acts" value=${type} onChange=${inputValue(setType)}><option value="member">a member</option><option value="workspace">the workspace</option></select></span>
      ${type === 'member' && html`<label for="key-member">Member id</label><input id="key-member" inputmode="numeric" list="key-members" size="6" value=${member} onInput=${inputValue(setMember)} /><${MemberOptions} id="key-members" />`}
      <span class="pair"><label for="key-expires">Expires (end of day, UTC)</label>
      <input id="key-expires" type="date" value=${expires} onInput=${inputValue(setExpires)} /></span>
      <span class="pair"><label for="key-own">Key value (empty: generated)</label>
      <input id="key-own" autocomplete="off" value=${own} onInput=${inputValue(setOwn)} /></span>
      <button type="submit">Create key</button>
    </form>
    ${act.refusal && html`<${Refusal} status=${act.refusal.status} error=${act.refusal.error!} what="new key" />`}
  </section>`;
}

function EditKey({ k, done }: { k: any; done: () => void }) {
  const act = useAction();
  const [name, setName] = useState(k.name);
  const [type, setType] = useState(k.actsAs.type);
  const [member, setMember] = useState(k.actsAs.type === 'member' ? String(k.actsAs.id) : '');
  const [expires, setExpires] = useState(k.expiresOn ?? '');
  const id = `edit-key-${k.id}`;
  const submit = (e: Event) => {
    e.preventDefault();
    const body: Record<string, unknown> = {};
    if (name !== k.name) body.name = name;
    const before = k.actsAs.type === 'member' ? `member:${k.actsAs.id}` : 'workspace';
    if ((type === 'workspace' ? 'workspace' : `member:${member.trim()}`) !== before) body.actsAs = actsAsBody(type, member);
    if (expires !== (k.expiresOn ?? '')) body.expiresOn = expires === '' ? null : expires;
    void act.run(() => admin('PATCH', `/_emulator/keys/${k.id}`, body), `API key ${k.id} saved`, done);
  };
  return html`<form class="inline" aria-label=${`Edit key ${k.name}`} onSubmit=${submit} novalidate>
    <label for=${`${id}-name`}>Name</label>
    <input id=${`${id}-name`} value=${name} onInput=${inputValue(setName)} />
    <label for=${`${id}-acts`}>Acts as</label>
    <select id=${`${id}-acts`} value=${type} onChange=${inputValue(setType)}><option value="member">a member</option><option value="workspace">the workspace</option></select>
    ${type === 'member' && html`<label for=${`${id}-member`}>Member id</label><input id=${`${id}-member`} inputmode="numeric" size="6" list="key-members" value=${member} onInput=${inputValue(setMember)} />`}
    <label for=${`${id}-expires`}>Expires (empty: never)</label>
    <input id=${`${id}-expires`} type="date" value=${expires} onInput=${inputValue(setExpires)} />
    <button type="submit">Save key</button>
    <button type="button" class="small" onClick=${done}>Cancel</button>
    ${act.refusal && html`<${Refusal} status=${act.refusal.status} error=${act.refusal.error!} what="edit key" />`}
  </form>`;
}

function KeyRow({ k, names, reload }: { k: any; names: Map<string, string>; reload: () => void }) {
  const act = useAction();
  const [editing, setEditing] = useState(false);
  const closed = k.state === 'revoked';
  return html`<tr role="row" data-key-id=${k.id} class=${k.state === 'active' ? '' : `key-${k.state}`}>
    <td role="cell" data-label="Id">${k.id}</td>
    <td role="cell" class="stack-title">${k.name}</td>
    <td role="cell" data-label="Workspace">${names.get(k.workspace) ?? k.workspace} <span class="muted">${k.region}</span></td>
    <td role="cell" data-label="Acts as">${actsAsText(k.actsAs)}</td>
    <td role="cell" data-label="State"><${Badge} kind=${STATE_KIND[k.state] ?? 'muted'} testid="key-state">${k.state}<//>${k.revokedDateTime ? html` <span class="muted">on <${Time} value=${k.revokedDateTime} /></span>` : ''}</td>
    <td role="cell" data-label="Expires">${k.expiresOn ?? html`<span class="muted">never</span>`}</td>
    <td role="cell" data-label="Created"><${Time} value=${k.createdDateTime} /></td>
    <td role="cell" data-focus-group>
      ${editing
        ? html`<${EditKey} k=${k} done=${() => (setEditing(false), reload())} />`
        : !closed &&
          html`<button type="button" class="small" onClick=${() => setEditing(true)}>Edit<span class="sr-only"> key ${k.name}</span></button>
            <button type="button" class="small" onClick=${() => confirm(`Revoke the key ${k.name}? A revoked key is never restored.`) && act.run(() => admin('DELETE', `/_emulator/keys/${k.id}`), `API key ${k.name} revoked`, reload)}>Revoke<span class="sr-only"> key ${k.name}</span></button>`}
      ${act.refusal && html`<${Refusal} status=${act.refusal.status} error=${act.refusal.error!} what="revoke" />`}
    </td>
  </tr>`;
}

export function KeysPage({ path }: { path: string }) {
  const live = usePanelFeed();
  const keys = useApi(() => admin('GET', '/_emulator/keys'), [], panelStamp(live));
  const ov = useApi(() => admin('GET', '/_emulator/overview'), [], 'none');
  const workspaces: any[] = ov.answer?.ok ? ov.answer.body.workspaces : [];
  const names = new Map(workspaces.map((w) => [w.key, w.name] as [string, string]));
  return html`<h1>Emulator: API keys</h1>
    <${PanelNav} path=${path} />
    <p>Keys are made, edited and revoked as a workspace's Administrator does (spec v3 5.2). A revoked key answers 401 from its next request on and is never restored; a reset brings back the fixture's keys alone.</p>
    <${CreateKey} workspaces=${workspaces} reload=${keys.reload} />
    <section aria-labelledby="keys-h">
      <h2 id="keys-h">Keys</h2>
      ${!keys.answer ? html`<p class="muted" aria-busy="true">Loading…</p>` : !keys.answer.ok ? html`<${Refusal} status=${keys.answer.status} error=${keys.answer.error!} what="keys" />`
        : html`<${Wide} label="API keys"><table class="stack-table" role="table" data-testid="keys">
            <thead role="rowgroup"><tr role="row"><th scope="col" role="columnheader">Id</th><th scope="col" role="columnheader">Name</th><th scope="col" role="columnheader">Workspace</th><th scope="col" role="columnheader">Acts as</th><th scope="col" role="columnheader">State</th><th scope="col" role="columnheader">Expires</th><th scope="col" role="columnheader">Created</th><th scope="col" role="columnheader"><span class="sr-only">Actions</span></th></tr></thead>
            <tbody role="rowgroup">${keys.answer.body.items.map((k: any) => html`<${KeyRow} k=${k} names=${names} reload=${keys.reload} key=${k.id} />`)}</tbody>
          </table><//>`}
    </section>`;
}
