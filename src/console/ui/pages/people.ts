// Members and groups, read through /v3/members and /v3/groups with their filters and paging.
import { useState } from 'preact/hooks';
import { html } from '../html';
import { v3, enc } from '../api';
import { useApi } from '../hooks';
import { Loaded, Badge, Wide } from '../parts';

function MemberTable({ items }: { items: any[] }) {
  return html`<${Wide} label="Members"><table>
    <thead><tr><th scope="col">Id</th><th scope="col">Name</th><th scope="col">Email</th><th scope="col">Role</th><th scope="col">Active</th></tr></thead>
    <tbody>${items.map((m) => html`<tr><td>${m.id}</td><td>${m.name ?? ''}</td><td>${m.email}</td><td>${m.role}</td><td>${m.isActive ? 'yes' : html`<${Badge} kind="muted">deactivated<//>`}</td></tr>`)}</tbody>
  </table><//>`;
}

export function MembersPage() {
  const [search, setSearch] = useState('');
  const [role, setRole] = useState('');
  const [inactive, setInactive] = useState(false);
  const [q, setQ] = useState('');
  const [extra, setExtra] = useState<any[]>([]);
  const [cursor, setCursor] = useState<string | undefined>(undefined);
  const { answer } = useApi(() => v3('GET', `/v3/members?pageSize=50${q}`), [q]);
  const more = async (after: string) => {
    const a = await v3('GET', `/v3/members?pageSize=50${q}&after=${enc(after)}`);
    if (a.ok) {
      setExtra([...extra, ...a.body.items]);
      setCursor(a.body.hasMore ? a.body.nextCursor : '');
    }
  };
  return html`<h1>Members</h1>
    <form class="filters" aria-label="Filter members" onSubmit=${(e: Event) => {
      e.preventDefault();
      const p = new URLSearchParams();
      if (search) p.set('search', search);
      if (role) p.set('role', role);
      if (inactive) p.set('includeInactive', 'true');
      setExtra([]);
      setCursor(undefined);
      setQ(p.toString() ? `&${p}` : '');
    }}>
      <label>Search <input type="search" value=${search} onInput=${(e: Event) => setSearch((e.target as HTMLInputElement).value)} /></label>
      <label>Role <select value=${role} onChange=${(e: Event) => setRole((e.target as HTMLSelectElement).value)}>${['', 'Administrator', 'Member', 'Guest'].map((r) => html`<option value=${r}>${r || 'any'}</option>`)}</select></label>
      <label class="check"><input type="checkbox" checked=${inactive} onChange=${(e: Event) => setInactive((e.target as HTMLInputElement).checked)} /> include deactivated</label>
      <button type="submit">Apply</button>
    </form>
    <${Loaded} answer=${answer} what="GET /v3/members">
      ${(b: any) => {
        const next = cursor === undefined ? (b.hasMore ? b.nextCursor : '') : cursor;
        return html`<p class="muted">${b.total} member${b.total === 1 ? '' : 's'}</p><${MemberTable} items=${[...b.items, ...extra]} />${next && html`<button type="button" onClick=${() => more(next)}>Load more</button>`}`;
      }}
    <//>`;
}

export function GroupsPage() {
  const { answer } = useApi(() => v3('GET', '/v3/groups?pageSize=100'), []);
  return html`<h1>Groups</h1>
    <${Loaded} answer=${answer} what="GET /v3/groups">
      ${(b: any) => html`<ul>${b.items.map((g: any) => html`<li><a href=${`/app/groups/${g.id}`}>${g.name}</a></li>`)}</ul>`}
    <//>`;
}

export function GroupPage({ groupId }: { groupId: string }) {
  const { answer } = useApi(() => v3('GET', `/v3/groups/${enc(groupId)}`), [groupId]);
  return html`<${Loaded} answer=${answer} what=${`GET /v3/groups/${groupId}`}>
    ${(g: any) => html`<div class="crumbs"><a href="/app/groups">Groups</a> › <span>${g.name}</span></div><h1>${g.name}</h1>
      ${(g.members ?? []).length === 0 ? html`<p class="muted">Nobody is in this group.</p>` : html`<${MemberTable} items=${g.members} />`}`}
  <//>`;
}
