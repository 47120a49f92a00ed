// Starting and managing work from the console, each through the v3 operation a client would
// call (refusals shown in the API's words): run a checklist from a template, start a
// template upgrade and watch it finish, archive, share and tag a checklist, raise a
// standalone task.
import { useState } from 'preact/hooks';
import { html } from '../html';
import { DateTimePicker, wallToUtc } from '../pickers';
import { v3, enc, appPath } from '../api';
import { useApi } from '../hooks';
import { useAction } from '../action';
import { OneFieldForm, tagBadges } from '../forms';
import { navigate } from '../router';
import { Refusal, Badge } from '../parts';


/** POST /v3/checklists from a template (its version shown, or the latest), then the new checklist's page. */
export function RunChecklist({ templateKey, version, latest }: { templateKey: string; version: number; latest: boolean }) {
  const act = useAction();
  const [name, setName] = useState('');
  const [due, setDue] = useState('');
  const [params, setParams] = useState<Record<string, string>>({});
  // The parameters its document declares (its `parameters`, and fields filled from one), as text inputs.
  const doc = useApi(() => v3('GET', `/v3/templates/${enc(templateKey)}/document?version=${version}`), [templateKey, version], 'none');
  const names = new Set<string>();
  if (doc.answer?.ok) {
    for (const p of doc.answer.body?.parameters ?? []) if (typeof p?.name === 'string') names.add(p.name);
    for (const t of doc.answer.body?.tasks ?? []) for (const f of t.fields ?? []) if (typeof f.valueFrom?.parameter === 'string') names.add(f.valueFrom.parameter);
  }
  return html`<section aria-labelledby="run-h" class="card">
    <h2 id="run-h">Run a checklist</h2>
    <form class="inline" onSubmit=${(e: Event) => {
      e.preventDefault();
      const body: Record<string, unknown> = { templateKey, name };
      if (!latest) body.version = version;
      if (due) body.dueDateTime = wallToUtc(due) ?? due;
      const given = Object.entries(params).filter(([, v]) => v !== '');
      if (given.length) body.parameters = Object.fromEntries(given);
      void act.run(() => v3('POST', '/v3/checklists', body), `Checklist ${name} started`, (a) => navigate(appPath(a.body.url)));
    }}>
      <label for="run-name">Checklist name</label>
      <input id="run-name" value=${name} onInput=${(e: Event) => setName((e.target as HTMLInputElement).value)} />
      <${DateTimePicker} id="run-due" label="Due (optional)" wall=${due} onWall=${setDue} />
      ${[...names].map((p) => html`<label for=${`run-param-${p}`}>Parameter ${p}</label>
        <input id=${`run-param-${p}`} value=${params[p] ?? ''} onInput=${(e: Event) => setParams({ ...params, [p]: (e.target as HTMLInputElement).value })} />`)}
      <button type="submit" aria-disabled=${act.busy ? 'true' : undefined}>Run checklist</button>
    </form>
    ${act.refusal && html`<${Refusal} status=${act.refusal.status} error=${act.refusal.error!} what="run checklist" labels=${{ name: 'Checklist name', dueDateTime: 'Due', parameters: 'Parameters', templateKey: 'Template', version: 'Version' }} />`}
  </section>`;
}

/** The candidates of a version, an upgrade of all of them, and its progress as the checklists move. */
export function Upgrades({ templateKey, version }: { templateKey: string; version: number }) {
  const act = useAction();
  const [queued, setQueued] = useState<string[] | undefined>(undefined);
  const candidates = useApi(() => v3('GET', `/v3/templates/${enc(templateKey)}/upgrades?version=${version}&pageSize=100`), [templateKey, version]);
  const progress = useApi(
    () => (queued ? v3('GET', `/v3/checklists?templateKey=${enc(templateKey)}&includeArchived=true&pageSize=100`) : Promise.resolve({ ok: true, status: 200, body: { items: [] } })),
    [templateKey, queued?.join()],
  );
  const mine = queued && progress.answer?.ok ? (progress.answer.body.items as any[]).filter((c) => queued.includes(c.key)) : [];
  const done = mine.filter((c) => c.version === version).length;
  const items: any[] = candidates.answer?.ok ? candidates.answer.body.items : [];
  return html`<section aria-labelledby="up-h" class="card">
    <h2 id="up-h">Upgrade checklists to version ${version}</h2>
    ${candidates.answer && !candidates.answer.ok && html`<${Refusal} status=${candidates.answer.status} error=${candidates.answer.error!} what="upgrade candidates" />`}
    ${candidates.answer?.ok && queued && queued.length > 0 && done < queued.length
      ? // Under way, the candidates are the ones moving: "0 on another version" beside "Upgrading: 0 of 3" said two things (issue 40).
        html`<p data-testid="upgrade-candidates">${queued.length} checklist${queued.length === 1 ? '' : 's'} queued for version ${version}.</p>`
      : candidates.answer?.ok && html`<p data-testid="upgrade-candidates">${candidates.answer.body.total} checklist${candidates.answer.body.total === 1 ? '' : 's'} on another version${items.length ? ':' : '.'}</p>
      ${items.length > 0 && html`<ul>${items.map((c) => html`<li><a href=${appPath(c.url)}>${c.name}</a> <span class="muted">version ${c.version}</span></li>`)}</ul>`}`}
    <button type="button" disabled=${act.busy || items.length === 0} onClick=${() => act.run(() => v3('POST', `/v3/templates/${enc(templateKey)}/upgrades`, { all: true, version }), 'Upgrade started', (a) => setQueued(a.body.checklistKeys))}>Upgrade all to version ${version}</button>
    ${queued && html`<p role="status" data-testid="upgrade-progress">${queued.length === 0 ? 'Nothing was queued.' : done === queued.length ? html`<${Badge} kind="Complete">Upgrade finished<//> ${done} of ${queued.length} on version ${version}` : `Upgrading: ${done} of ${queued.length} on version ${version}`}
      ${queued.length > 0 && html` <progress max=${queued.length} value=${done} aria-label="Checklists upgraded"></progress>`}</p>`}
    ${act.refusal && html`<${Refusal} status=${act.refusal.status} error=${act.refusal.error!} what="upgrade" />`}
  </section>`;
}

/** Archive or unarchive, share, and the tags of a checklist. */
export function ChecklistActions({ c }: { c: any }) {
  const act = useAction();
  const [share, setShare] = useState<string | undefined>(undefined);
  const base = `/v3/checklists/${enc(c.key)}`;
  return html`<section aria-labelledby="manage-h" class="manage">
    <h2 id="manage-h" class="sr-only">Manage the checklist</h2>
    <div class="actions">
      ${c.isArchived
        ? html`<button type="button" onClick=${() => act.run(() => v3('DELETE', `${base}/archive`), 'Checklist unarchived')}>Unarchive</button>`
        : html`<button type="button" onClick=${() => act.run(() => v3('POST', `${base}/archive`), 'Checklist archived')}>Archive</button>`}
      <button type="button" onClick=${() => act.run(() => v3('PUT', `${base}/share`), 'Share link made', (a) => setShare(a.body?.url ?? a.body?.shareUrl))}>Share</button>
      ${share && html`<span>Share link: <a href=${share}>${share}</a></span>`}
    </div>
    <div class="inline tags">
      <span>Tags:</span>
      ${tagBadges(act, base, c.tags ?? [])}
      <${OneFieldForm} act=${act} label="Add a tag" inputId="tag-input" submit="Add tag" send=${(tag: string) => v3('POST', `${base}/tags`, { tags: [tag] })} done=${(tag: string) => `Tag ${tag} added`} />
    </div>
    ${act.refusal && html`<${Refusal} status=${act.refusal.status} error=${act.refusal.error!} what="checklist" />`}
  </section>`;
}

/** POST /v3/tasks: a standalone task, then its page. */
export function NewStandaloneTask() {
  const act = useAction();
  const [name, setName] = useState('');
  const [due, setDue] = useState('');
  const [description, setDescription] = useState('');
  return html`<details class="card">
    <summary>New standalone task</summary>
    <form class="stack" aria-label="New standalone task" onSubmit=${(e: Event) => {
      e.preventDefault();
      const body: Record<string, unknown> = { name };
      if (description) body.description = description;
      if (due) body.dueDateTime = wallToUtc(due) ?? due;
      void act.run(() => v3('POST', '/v3/tasks', body), `Task ${name} created`, (a) => navigate(a.body.url ? appPath(a.body.url) : `/app/tasks/${enc(a.body.key)}`));
    }}>
      <label for="new-task-name">Task name</label>
      <input id="new-task-name" value=${name} onInput=${(e: Event) => setName((e.target as HTMLInputElement).value)} />
      <label for="new-task-description">Description (optional)</label>
      <textarea id="new-task-description" rows="2" value=${description} onInput=${(e: Event) => setDescription((e.target as HTMLTextAreaElement).value)}></textarea>
      <${DateTimePicker} id="new-task-due" label="Due (optional)" wall=${due} onWall=${setDue} />
      <button type="submit" aria-disabled=${act.busy ? 'true' : undefined}>Create task</button>
    </form>
    ${act.refusal && html`<${Refusal} status=${act.refusal.status} error=${act.refusal.error!} what="new task" labels=${{ name: 'Task name', description: 'Description', dueDateTime: 'Due' }} />`}
  </details>`;
}

/** A standalone task's own actions: rename, attach to a checklist or detach, delete. */
export function StandaloneActions({ t }: { t: any }) {
  const act = useAction();
  const base = `/v3/tasks/${enc(t.key)}`;
  return html`<section aria-labelledby="standalone-h">
    <h3 id="standalone-h">Standalone task</h3>
    <${OneFieldForm} act=${act} label="Rename to" inputId="rename-task" submit="Rename" send=${(name: string) => v3('PATCH', base, { name })} done="Task renamed" />
    <${OneFieldForm} act=${act} label="Attach to checklist (key)" inputId="attach-task" submit="Attach" send=${(key: string) => v3('PUT', `${base}/attachment`, { checklistKey: key.trim() })} done="Task attached">
      ${t.checklist && html`<button type="button" onClick=${() => act.run(() => v3('DELETE', `${base}/attachment`), 'Task detached')}>Detach</button>`}
    <//>
    <button type="button" onClick=${() => confirm(`Delete the task ${t.name}?`) && act.run(() => v3('DELETE', base), 'Task deleted', () => navigate('/app/my-work'))}>Delete task</button>
    ${act.refusal && html`<${Refusal} status=${act.refusal.status} error=${act.refusal.error!} what="task" />`}
  </section>`;
}
