// My work: the Tasks grid (GET /v3/my-work, spec v3 4.5/4.6, work item of 2.6) with its
// saved views (applied as list_my_work arguments, 4.6 last rule) and snoozes.
import { useState } from 'preact/hooks';
import { html } from '../html';
import { DateTimePicker, PeoplePicker, wallToUtc, type Person } from '../pickers';
import { v3, appPath, enc } from '../api';
import { useApi } from '../hooks';
import { useAction } from '../action';
import { Loaded, Refusal, Badge, Time, Wide, names } from '../parts';
import { NewStandaloneTask } from './manage';

const STATUSES = ['Incomplete', 'DueToday', 'Overdue', 'DueInFuture', 'Halted', 'Snoozed', 'Complete', 'NotApplicable'];
const SORTS = ['dueDateTime:asc', 'dueDateTime:desc', 'name:asc', 'name:desc', 'checklistName:asc', 'templateName:asc', 'commentCount:desc'];

/** A saved view as list_my_work arguments (search and sorts the list does not take are left out). */
export function viewQuery(v: any): Record<string, string> {
  const q: Record<string, string> = {};
  if (Array.isArray(v.statuses) && v.statuses.length) q.status = v.statuses.join(',');
  if (!v.allTemplates && Array.isArray(v.templates) && v.templates.length) q.template = v.templates.map((t: any) => (typeof t === 'string' ? t : t.key)).join(',');
  if (v.allAssignees) q.assignee = 'all';
  else {
    const a = (v.assignees ?? []).map((x: any) => `${x.type}:${x.id}`);
    if (v.includeUnassigned) a.push(a.length ? 'unassigned' : 'me,unassigned');
    if (a.length) q.assignee = a.join(',');
  }
  if (v.includeStandalone === false) q.includeStandalone = 'false';
  if (typeof v.sort === 'string' && !/^(status|assignees|tags)/.test(v.sort)) q.sort = v.sort;
  return q;
}

/** POST /v3/my-work/views: the filters shown saved as a view; a UsersGroups view names who sees it (`visibleTo`, people and groups). */
function SaveView({ statuses, sort }: { statuses: string[]; sort: string }) {
  const act = useAction();
  const [name, setName] = useState('');
  const [type, setType] = useState('Private');
  const [visibleTo, setVisibleTo] = useState<Person[]>([]);
  return html`<details class="card">
    <summary>Save these filters as a view</summary>
    <form class="stack" aria-label="Save a view" onSubmit=${(e: Event) => {
      e.preventDefault();
      const body: Record<string, unknown> = { name, type, sort };
      if (statuses.length) body.statuses = statuses;
      if (type === 'UsersGroups') body.visibleTo = visibleTo.map(({ type: t, id }) => ({ type: t, id }));
      void act.run(() => v3('POST', '/v3/my-work/views', body), `View ${name} saved`, () => (setName(''), setVisibleTo([])));
    }}>
      <label for="view-name">View name</label>
      <input id="view-name" value=${name} onInput=${(e: Event) => setName((e.target as HTMLInputElement).value)} />
      <label for="view-type">Shared with</label>
      <select id="view-type" value=${type} onChange=${(e: Event) => setType((e.target as HTMLSelectElement).value)}>
        <option value="Private">only me (Private)</option><option value="UsersGroups">chosen people and groups (UsersGroups)</option><option value="Team">everyone (Team)</option>
      </select>
      ${type === 'UsersGroups' && html`<${PeoplePicker} id="view-visible-to" label="Visible to" value=${visibleTo} onChange=${setVisibleTo} />`}
      <button type="submit">Save view</button>
    </form>
    ${act.refusal && html`<${Refusal} status=${act.refusal.status} error=${act.refusal.error!} what="save view" labels=${{ name: 'View name', type: 'Shared with', visibleTo: 'Visible to', statuses: 'Status', sort: 'Sort' }} />`}
  </details>`;
}

/** The arguments a saved view was made with, for PUT (a replacement: whatever is left out returns to its default). */
function viewArgs(v: any): Record<string, unknown> {
  const args: Record<string, unknown> = { name: v.name, type: v.type, statuses: v.statuses, allTemplates: v.allTemplates, includeStandalone: v.includeStandalone, allAssignees: v.allAssignees, includeUnassigned: v.includeUnassigned, sort: v.sort };
  if (v.search) args.search = v.search;
  if (!v.allTemplates) args.templates = (v.templates ?? []).map((t: any) => (typeof t === 'string' ? t : t.key));
  if (!v.allAssignees) args.assignees = (v.assignees ?? []).map(({ type, id }: any) => ({ type, id }));
  return args;
}

/** Who sees a UsersGroups view: its `visibleTo` changed through the people picker (PUT the view with the rest as it is). */
function ViewSharing({ view }: { view: any }) {
  const act = useAction();
  const [who, setWho] = useState<Person[] | undefined>(undefined);
  const chosen = who ?? (view.visibleTo ?? []).map((x: any) => ({ type: x.type, id: x.id, name: x.name ?? `#${x.id}` }));
  return html`<form class="inline" aria-label=${`Who sees ${view.name}`} onSubmit=${(e: Event) => {
    e.preventDefault();
    void act.run(() => v3('PUT', `/v3/my-work/views/${enc(view.key)}`, { ...viewArgs(view), visibleTo: chosen.map(({ type, id }: Person) => ({ type, id })) }), `View ${view.name} shared`, () => setWho(undefined));
  }}>
    <${PeoplePicker} id="view-sharing" label=${`${view.name} is visible to`} value=${chosen} onChange=${setWho} />
    <button type="submit">Save sharing</button>
    ${act.refusal && html`<${Refusal} status=${act.refusal.status} error=${act.refusal.error!} what="view sharing" labels=${{ visibleTo: 'Visible to' }} />`}
  </form>`;
}

export function MyWorkPage() {
  const [statuses, setStatuses] = useState<string[]>([]);
  const [assignee, setAssignee] = useState('me');
  const [sort, setSort] = useState('dueDateTime:asc');
  const [viewKey, setViewKey] = useState('');
  const [params, setParams] = useState<Record<string, string>>({});
  const [picked, setPicked] = useState<Record<string, any>>({});
  const [until, setUntil] = useState('');
  const act = useAction();
  const views = useApi(() => v3('GET', '/v3/my-work/views'), []);
  const qs = new URLSearchParams({ pageSize: '100', ...params }).toString();
  const { answer } = useApi(() => v3('GET', `/v3/my-work?${qs}`), [qs]);
  const viewList: any[] = views.answer?.ok ? (Array.isArray(views.answer.body) ? views.answer.body : views.answer.body?.items ?? []) : [];
  const apply = (e: Event) => {
    e.preventDefault();
    const q: Record<string, string> = { sort };
    if (statuses.length) q.status = statuses.join(',');
    if (assignee) q.assignee = assignee;
    setParams(q);
  };
  const chooseView = (key: string) => {
    setViewKey(key);
    const v = viewList.find((x) => x.key === key);
    setParams(v ? viewQuery(v) : {});
  };
  const refs = () => Object.values(picked).map((w: any) => (w.isStandalone ? { taskKey: w.key, ...(w.checklist ? { checklistKey: w.checklist.key } : {}) } : { taskKey: w.key, checklistKey: w.checklist?.key }));
  return html`<h1>My work</h1>
    <${NewStandaloneTask} />
    ${views.answer?.ok && html`<label>Saved view <select value=${viewKey} onChange=${(e: Event) => chooseView((e.target as HTMLSelectElement).value)}>
      <option value="">(filters below)</option>
      ${viewList.map((v) => html`<option value=${v.key}>${v.name}${v.isDefault ? ' (default)' : ''}</option>`)}
    </select></label>`}
    ${(() => {
      const chosen = viewList.find((x) => x.key === viewKey);
      return chosen?.canEdit && chosen.type === 'UsersGroups' ? html`<${ViewSharing} view=${chosen} key=${chosen.key} />` : null;
    })()}
    <form class="filters" aria-label="Filter my work" onSubmit=${apply}>
      <fieldset class="inline"><legend>Status</legend>
        ${STATUSES.map((s) => html`<label class="check"><input type="checkbox" checked=${statuses.includes(s)} onChange=${(e: Event) => setStatuses((e.target as HTMLInputElement).checked ? [...statuses, s] : statuses.filter((x) => x !== s))} /> ${s}</label>`)}
      </fieldset>
      <label>Assignee <input value=${assignee} onInput=${(e: Event) => setAssignee((e.target as HTMLInputElement).value)} placeholder="me, all, unassigned, TeamMember:103" /></label>
      <label>Sort <select value=${sort} onChange=${(e: Event) => setSort((e.target as HTMLSelectElement).value)}>${SORTS.map((s) => html`<option value=${s}>${s}</option>`)}</select></label>
      <button type="submit">Apply</button>
    </form>
    <${SaveView} statuses=${statuses} sort=${sort} />
    <${Loaded} answer=${answer} what="GET /v3/my-work">
      ${(b: any) => html`<p class="muted">${b.total} task${b.total === 1 ? '' : 's'}</p>
        <${Wide} label="My work"><table class="stack-table stack-select" role="table" data-testid="my-work">
          <thead role="rowgroup"><tr role="row"><th scope="col" role="columnheader"><span class="sr-only">Select</span></th><th scope="col" role="columnheader">Task</th><th scope="col" role="columnheader">Status</th><th scope="col" role="columnheader">Checklist</th><th scope="col" role="columnheader">Due</th><th scope="col" role="columnheader">Assignees</th><th scope="col" role="columnheader">Comments</th></tr></thead>
          <tbody role="rowgroup">${b.items.map(
            (w: any) => html`<tr role="row">
              <td role="cell"><input type="checkbox" aria-label=${`Select ${w.name}`} checked=${!!picked[w.key + (w.checklist?.key ?? '')]} onChange=${(e: Event) => {
                const next = { ...picked };
                const k = w.key + (w.checklist?.key ?? '');
                if ((e.target as HTMLInputElement).checked) next[k] = w;
                else delete next[k];
                setPicked(next);
              }} /></td>
              <td role="cell" class="stack-title"><a href=${appPath(w.url)}>${w.name}</a>${w.isStandalone ? html` <${Badge} kind="muted">standalone<//>` : ''}${w.canActorAccess === false ? html` <${Badge} kind="muted">no access<//>` : ''}</td>
              <td role="cell" data-label="Status"><${Badge} kind=${w.status}>${w.status}<//>${w.snoozedUntilDateTime ? html` until <${Time} value=${w.snoozedUntilDateTime} />` : ''}</td>
              <td role="cell" data-label="Checklist">${w.checklist ? html`<a href=${appPath(w.checklist.url)}>${w.checklist.name}</a>` : ''}</td>
              <td role="cell" data-label="Due" data-testid="my-work-due"><${Time} value=${w.dueDateTime} /></td>
              <td role="cell" data-label="Assignees">${names(w.assignees)}</td>
              <td role="cell" data-label="Comments">${w.commentCount}</td>
            </tr>`,
          )}</tbody>
        </table><//>`}
    <//>
    <form class="inline" aria-label="Snooze" onSubmit=${(e: Event) => {
      e.preventDefault();
      void act.run(() => v3('POST', '/v3/my-work/snooze', { snoozedUntil: wallToUtc(until) ?? until, tasks: refs() }), 'Snoozed', () => setPicked({}));
    }}>
      <${DateTimePicker} id="snooze-until" label="Snooze the selected tasks until" wall=${until} onWall=${setUntil} />
      <button type="submit">Snooze</button>
      <button type="button" onClick=${() => act.run(() => v3('DELETE', '/v3/my-work/snooze', { tasks: refs() }), 'Snooze ended', () => setPicked({}))}>End snooze</button>
    </form>
    ${act.refusal && html`<${Refusal} status=${act.refusal.status} error=${act.refusal.error!} what="snooze" labels=${{ snoozedUntil: 'Snooze the selected tasks until', tasks: 'the selected tasks' }} />`}`;
}
