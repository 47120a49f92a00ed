// Templates: the list, and one template (a version's tasks and fields, its versions,
// permission rules, and the template document as exported).
import { useState } from 'preact/hooks';
import { html } from '../html';
import { v3, enc, appPath } from '../api';
import { useApi } from '../hooks';
import { Loaded, Badge, Time, Wide } from '../parts';
import { RunChecklist, Upgrades } from './manage';

export function TemplateList() {
  const [archived, setArchived] = useState(false);
  const { answer } = useApi(() => v3('GET', `/v3/templates?pageSize=100${archived ? '&includeArchived=true' : ''}`), [archived]);
  const drafts = useApi(() => v3('GET', '/v3/drafts'), []);
  return html`<h1>Templates</h1>
    <p><a href="/app/templates/new" class="button-link">New template</a></p>
    ${drafts.answer?.ok && drafts.answer.body.items.length > 0 && html`<section aria-labelledby="drafts-h"><h2 id="drafts-h">Drafts</h2>
      <ul>${drafts.answer.body.items.map((d: any) => html`<li><a href=${`/app/drafts/${enc(d.key)}`}>${d.name || '(unnamed draft)'}</a>${d.template ? html` <span class="muted">a new version of ${d.template.name}</span>` : html` <span class="muted">a new template</span>`} · changed <${Time} value=${d.updatedDateTime} /></li>`)}</ul></section>`}
    <label class="check"><input type="checkbox" checked=${archived} onChange=${(e: Event) => setArchived((e.target as HTMLInputElement).checked)} /> include archived</label>
    <${Loaded} answer=${answer} what="GET /v3/templates">
      ${(b: any) => html`<${Wide} label="Templates"><table>
        <thead><tr><th scope="col">Name</th><th scope="col">Version</th><th scope="col">Published</th><th scope="col">By</th></tr></thead>
        <tbody>${b.items.map(
          (t: any) => html`<tr><td><a href=${appPath(t.url)}>${t.name}</a>${t.isArchived ? html` <${Badge} kind="muted">archived<//>` : ''}</td><td>${t.version}</td><td><${Time} value=${t.createdDateTime} /></td><td>${t.createdBy?.name ?? ''}</td></tr>`,
        )}</tbody></table><//>`}
    <//>`;
}

export function TemplatePage({ templateKey, version }: { templateKey: string; version?: string }) {
  const path = `/v3/templates/${enc(templateKey)}`;
  const q = version ? `?version=${enc(version)}` : '';
  const detail = useApi(() => v3('GET', path + q), [path, q]);
  const versions = useApi(() => v3('GET', `${path}/versions`), [path]);
  const perms = useApi(() => v3('GET', `${path}/permissions`), [path]);
  const [doc, setDoc] = useState<string | undefined>(undefined);
  return html`<${Loaded} answer=${detail.answer} what=${`GET ${path}`}>
    ${(t: any) => html`<div class="crumbs"><a href="/app/templates">Templates</a> › <span>${t.name}</span></div>
      <h1>${t.name}</h1>
      <p class="summary">version ${t.version}${t.isLatest ? ' (latest)' : ` of ${t.latestVersion}`}${t.isArchived ? ' · archived' : ''} · published <${Time} value=${t.createdDateTime} />${t.createdBy ? ` by ${t.createdBy.name}` : ''}</p>
      ${t.description && html`<p>${t.description}</p>`}
      <p><a class="button-link" href=${`/app/templates/${enc(t.key ?? templateKey)}/edit?version=${t.version}`}>Edit and publish a new version</a> <span class="muted">(starts from version ${t.version})</span></p>
      ${!t.isArchived && html`<${RunChecklist} templateKey=${t.key ?? templateKey} version=${t.version} latest=${!!t.isLatest} />`}
      <${Upgrades} templateKey=${t.key ?? templateKey} version=${t.version} />
      <section aria-labelledby="tt-h"><h2 id="tt-h">Tasks</h2>
        <ol class="tasks">${(t.tasks ?? []).map((k: any) =>
          k.isHeading
            ? html`<li class="heading"><h3>${k.name}</h3></li>`
            : html`<li class="task"><span>${k.name}</span>${(k.fields ?? []).length > 0 && html`<ul class="muted field-list">${k.fields.map((f: any) => html`<li>${f.name} (${f.type}${f.isRequired ? ', required' : ''}${f.mode ? `, ${f.mode}` : ''}${f.dataSet ? `, Data Set ${f.dataSet.name}` : ''})</li>`)}</ul>`}</li>`,
        )}</ol>
      </section>
      <section aria-labelledby="tv-h"><h2 id="tv-h">Versions</h2>
        <${Loaded} answer=${versions.answer} what="versions">${(b: any) => html`<ul>${(b.items ?? b.versions ?? []).map((v: any) => html`<li><a href=${`/app/templates/${enc(templateKey)}?version=${v.version}`}>version ${v.version}</a> ${v.name} · <${Time} value=${v.createdDateTime} />${v.isLatest ? ' (latest)' : ''}</li>`)}</ul>`}<//>
      </section>
      <section aria-labelledby="tp-h"><h2 id="tp-h">Permissions</h2>
        <${Loaded} answer=${perms.answer} what="permissions">${(b: any) => {
          const rules = Array.isArray(b) ? b : b.items ?? b.permissions ?? b.rules ?? [];
          return rules.length === 0 ? html`<p class="muted">No rules.</p>` : html`<ul>${rules.map((r: any) => html`<li>${r.assigneeType === 'AllUsers' ? 'All users' : `${r.name ?? ''} (${r.assigneeType} ${r.assigneeId})`}: ${r.permission}</li>`)}</ul>`;
        }}<//>
      </section>
      <section aria-labelledby="td-h"><h2 id="td-h">Template document</h2>
        ${doc === undefined
          ? html`<button type="button" onClick=${() => v3('GET', `${path}/document${q}`).then((a) => setDoc(a.ok ? JSON.stringify(a.body, null, 2) : `${a.status} ${a.error?.code}: ${a.error?.message}`))}>Show the document</button>`
          : html`<${Wide} label="Template document"><pre>${doc}</pre><//>`}
      </section>`}
  <//>`;
}
