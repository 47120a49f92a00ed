// Checklists: the list (progress, filters) and one checklist with its tasks in order
// (headings, halted and hidden tasks flagged, overdue by the emulator's clock), the
// selected task beside it, and the standalone tasks attached to it.
import { useState } from 'preact/hooks';
import { html } from '../html';
import { v3, enc, appPath } from '../api';
import { useApi } from '../hooks';
import { Loaded, Refusal, Badge, Time, Wide, isOverdue } from '../parts';
import { useAction } from '../action';
import { navigate } from '../router';
import { useLive, emulatorNow } from '../live';
import { TaskPanel } from './task';
import { ChecklistActions } from './manage';
import { RunChecklist } from './run-quick';

const STATUSES = ['', 'InProgress', 'Complete', 'Scheduled'];

export function Progress({ counts }: { counts?: { total: number; complete: number; notApplicable: number } }) {
  if (!counts) return null;
  const done = counts.complete + counts.notApplicable;
  return html`<span class="progress"><progress max=${Math.max(counts.total, 1)} value=${done} aria-label=${`${done} of ${counts.total} tasks done`}></progress> ${done}/${counts.total}</span>`;
}

export function ChecklistList({ query }: { query: URLSearchParams }) {
  // The filters live in the URL (shareable, the back button works, a reload keeps them).
  const applied = { status: query.get('status') ?? '', search: query.get('search') ?? '', archived: query.get('includeArchived') === 'true', template: query.get('templateKey') ?? '' };
  const [status, setStatus] = useState(applied.status);
  const [search, setSearch] = useState(applied.search);
  const [archived, setArchived] = useState(applied.archived);
  const [template, setTemplate] = useState(applied.template);
  const templates = useApi(() => v3('GET', '/v3/templates?pageSize=100'), [], 'none');
  const qs = new URLSearchParams({ pageSize: '100', sort: 'name' });
  if (applied.status) qs.set('status', applied.status);
  if (applied.search) qs.set('search', applied.search);
  if (applied.archived) qs.set('includeArchived', 'true');
  if (applied.template) qs.set('templateKey', applied.template);
  const { answer } = useApi(() => v3('GET', `/v3/checklists?${qs}`), [qs.toString()]);
  return html`<h1>Checklists</h1>
    <${RunChecklist} />
    <form
      class="filters"
      aria-label="Filter checklists"
      onSubmit=${(e: Event) => {
        e.preventDefault();
        const q = new URLSearchParams();
        if (status) q.set('status', status);
        if (template) q.set('templateKey', template);
        if (search) q.set('search', search);
        if (archived) q.set('includeArchived', 'true');
        navigate(`/app/checklists${q.size ? `?${q}` : ''}`);
      }}
    >
      <label>Status <select value=${status} onChange=${(e: Event) => setStatus((e.target as HTMLSelectElement).value)}>${STATUSES.map((s) => html`<option value=${s}>${s || 'any'}</option>`)}</select></label>
      ${templates.answer?.ok && html`<label>Template <select value=${template} onChange=${(e: Event) => setTemplate((e.target as HTMLSelectElement).value)}>
        <option value="">any</option>
        ${templates.answer.body.items.map((t: any) => html`<option value=${t.key}>${t.name}</option>`)}
      </select></label>`}
      <label>Search <input type="search" value=${search} onInput=${(e: Event) => setSearch((e.target as HTMLInputElement).value)} /></label>
      <label class="check"><input type="checkbox" checked=${archived} onChange=${(e: Event) => setArchived((e.target as HTMLInputElement).checked)} /> include archived</label>
      <button type="submit">Apply</button>
    </form>
    <${Loaded} answer=${answer} what="GET /v3/checklists">
      ${(body: any) => html`<p class="muted">${body.total} checklist${body.total === 1 ? '' : 's'}${body.hasMore ? ' (first 100 shown)' : ''}</p>
        <${Wide} label="Checklists">
          <table>
            <thead><tr><th scope="col">Name</th><th scope="col">Template</th><th scope="col">Status</th><th scope="col">Progress</th><th scope="col">Created</th></tr></thead>
            <tbody>
              ${body.items.map(
                (c: any) => html`<tr>
                  <td><a href=${appPath(c.url)}>${c.name}</a>${c.isArchived ? html` <${Badge} kind="muted">archived<//>` : ''}</td>
                  <td>${c.template?.name} v${c.version}</td>
                  <td><${Badge} kind=${c.status}>${c.status}<//></td>
                  <td><${Progress} counts=${c.taskCounts} /></td>
                  <td><${Time} value=${c.createdDateTime} /></td>
                </tr>`,
              )}
            </tbody>
          </table>
        <//>`}
    <//>`;
}

function statusOf(t: any, now: number) {
  if (t.isHeading) return null;
  const out = [html`<${Badge} kind=${t.status}>${t.status === 'NotApplicable' ? 'Not applicable' : t.status}<//>`];
  if (isOverdue(t, now)) out.push(html` <${Badge} kind="Overdue">Overdue<//>`);
  if (t.isCurrentlyHalted) out.push(html` <${Badge} kind="halted">Halted<//>`);
  if (t.isCurrentlyHidden) out.push(html` <${Badge} kind="muted">Hidden by a condition<//>`);
  return out;
}

/**
 * The template document of the checklist's version: the stop tasks (no task resource says
 * which they are) and each field's options for its control. A key that may not export the
 * template sees neither (the tasks' own Halted flags still show; fields fall back to text).
 */
function useTemplateDoc(checklist: any): { stops: Set<string>; defs: Map<string, any> } {
  const key = checklist?.ok ? checklist.body.template?.key : undefined;
  const version = checklist?.ok ? checklist.body.version : undefined;
  const { answer } = useApi(() => (key ? v3('GET', `/v3/templates/${enc(key)}/document?version=${version}`) : Promise.resolve({ ok: false, status: 0, body: undefined })), [key, version], 'none');
  const stops = new Set<string>();
  const defs = new Map<string, any>();
  if (answer?.ok)
    for (const t of answer.body?.tasks ?? []) {
      if (t.isStop && typeof t.id === 'string') stops.add(t.id.toLowerCase());
      for (const f of t.fields ?? []) if (typeof f.id === 'string') defs.set(f.id.toLowerCase(), f);
    }
  return { stops, defs };
}

/** The task list: each task a real checkbox (its name the label) that completes or uncompletes it. */
export function TaskRows({ tasks, checklistKey, selected, now, stops }: { tasks: any[]; checklistKey: string; selected?: string; now: number; stops?: Set<string> }) {
  const act = useAction();
  const toggle = (t: any) => (e: Event) => {
    const box = e.target as HTMLInputElement;
    const done = t.status === 'Complete';
    const path = `/v3/checklists/${enc(checklistKey)}/tasks/${enc(t.key)}/complete`;
    void act.run(() => v3(done ? 'DELETE' : 'POST', path), done ? `${t.name}: uncompleted` : `${t.name}: completed`).then((a) => {
      if (!a.ok) box.checked = done; // refused: the box shows the task as it still is
    });
  };
  return html`${act.refusal && html`<${Refusal} status=${act.refusal.status} error=${act.refusal.error!} what="task" />`}
  <ol class="tasks">
    ${tasks.map((t) =>
      t.isHeading
        ? html`<li class="heading" key=${t.key}><h3>${t.name}</h3></li>`
        : html`<li key=${t.key} class=${`task${t.key === selected ? ' selected' : ''}${t.isCurrentlyHidden ? ' hidden-task' : ''}`} data-task=${t.key}>
            <input type="checkbox" class="task-check" id=${`check-${t.key}`} checked=${t.status === 'Complete'} onChange=${toggle(t)} aria-labelledby=${`name-${t.key}`} />
            <a id=${`name-${t.key}`} href=${`/app/checklists/${enc(checklistKey)}/tasks/${enc(t.key)}`} aria-current=${t.key === selected ? 'true' : undefined}>${t.name}</a>
            <span class="task-meta">${statusOf(t, now)}${stops?.has(t.key.toLowerCase()) ? html` <${Badge} kind="stop">Stop task<//>` : ''} ${t.dueDateTime && html`<span class="muted">due <${Time} value=${t.dueDateTime} /></span>`}</span>
          </li>`,
    )}
  </ol>`;
}

export function ChecklistPage({ checklistKey, taskKey }: { checklistKey: string; taskKey?: string }) {
  const { live } = useLive();
  const now = emulatorNow(live);
  const path = `/v3/checklists/${enc(checklistKey)}`;
  const checklist = useApi(() => v3('GET', path), [path]);
  const tasks = useApi(() => v3('GET', `${path}/tasks`), [path]);
  const attached = useApi(() => v3('GET', `${path}/attached-tasks`), [path]);
  const { stops, defs } = useTemplateDoc(checklist.answer);
  return html`<${Loaded} answer=${checklist.answer} what=${`GET ${path}`}>
    ${(c: any) => html`<div class="crumbs"><a href="/app/checklists">Checklists</a> › <span>${c.name}</span></div>
      <h1>${c.name}</h1>
      <p class="summary">
        <${Badge} kind=${c.status} testid="checklist-status">${c.status}<//> <${Progress} counts=${c.taskCounts} />
        <span> · template</span> <a href=${`${appPath(c.template?.url)}?version=${c.version}`}>${c.template?.name} v${c.version}</a>
        ${c.dueDateTime && html` · due <${Time} value=${c.dueDateTime} />`}
        ${c.isArchived && html` · <${Badge} kind="muted">archived<//>`}
      </p>
      <${ChecklistActions} c=${c} />
      <div class="split">
        <section class="task-list" aria-labelledby="tasks-h">
          <h2 id="tasks-h">Tasks</h2>
          <${Loaded} answer=${tasks.answer} what="tasks">${(b: any) => html`<${TaskRows} tasks=${b.tasks} checklistKey=${checklistKey} selected=${taskKey} now=${now} stops=${stops} />`}<//>
          <h2>Attached standalone tasks</h2>
          <${Loaded} answer=${attached.answer} what="attached tasks">
            ${(b: any) => {
              const items = b.items ?? b.tasks ?? [];
              return items.length === 0
                ? html`<p class="muted">None.</p>`
                : html`<ul class="tasks">${items.map((t: any) => html`<li class="task"><a href=${appPath(t.url) === '#' ? `/app/tasks/${enc(t.key)}` : appPath(t.url)}>${t.name}</a> <span class="task-meta">${statusOf(t, now)}</span></li>`)}</ul>`;
            }}
          <//>
        </section>
        <section class="task-detail" aria-label="Selected task">
          ${taskKey
            ? html`<${TaskPanel} base=${`${path}/tasks/${enc(taskKey)}`} defs=${defs} />`
            : html`<p class="muted">Choose a task to see its fields, assignees, due date and comments.</p>`}
        </section>
      </div>`}
  <//>`;
}
