// Data Set pages (docs/data-sets.md): the list (organisation and system sets) and one set
// with its records paged through a chosen view (its filters, sorts and hidden fields), a
// filter over the page shown, add, edit and delete a record (the API's own validation
// messages), CSV export and import, and the template fields that use the set.
import { useState } from 'preact/hooks';
import { html } from '../html';
import { v3, enc, appPath, consolePath } from '../api';
import { useApi } from '../hooks';
import { useAction } from '../action';
import { session } from '../session';
import { Loaded, Refusal, Badge, Wide } from '../parts';
import { saveDownload, sendPickedFile } from '../files';
import { ViewsEditing } from './dataset-views';

export function DataSetList() {
  const { answer } = useApi(() => v3('GET', '/v3/data-sets?pageSize=100'), []);
  return html`<h1>Data Sets</h1>
    <${Loaded} answer=${answer} what="GET /v3/data-sets">
      ${(b: any) => html`<${Wide} label="Data Sets"><table>
        <thead><tr><th scope="col">Name</th><th scope="col">Source</th><th scope="col">Fields</th><th scope="col">Records</th></tr></thead>
        <tbody>${b.items.map((d: any) => html`<tr><td><a href=${appPath(d.url)}>${d.name}</a></td><td><${Badge} kind="muted">${d.source}<//></td><td>${d.fieldCount}</td><td>${d.recordCount}</td></tr>`)}</tbody>
      </table><//>`}
    <//>`;
}

const INPUT_TYPE: Record<string, string> = { number: 'number', email: 'email', url: 'url', date: 'date' };

/** A form value as the API takes it: numbers as numbers, booleans as booleans, empty as "" (clears). */
function typed(type: string, raw: string): unknown {
  if (raw === '') return '';
  if (type === 'boolean') return raw === 'true';
  if (type === 'number' && raw.trim() !== '' && !Number.isNaN(Number(raw))) return Number(raw);
  return raw;
}

function RecordForm({ fields, record, onSave, label }: { fields: any[]; record?: any; onSave: (values: Record<string, unknown>) => Promise<unknown>; label: string }) {
  const [vals, setVals] = useState<Record<string, string>>(() => Object.fromEntries(fields.map((f) => [f.key, record?.values?.[f.key] === undefined ? '' : String(record.values[f.key])])));
  const prefix = record ? `edit-${record.key}` : 'new-record';
  return html`<form class="inline record-form" novalidate aria-label=${label} onSubmit=${(e: Event) => {
    e.preventDefault();
    const values: Record<string, unknown> = {};
    for (const f of fields) {
      const before = record?.values?.[f.key] === undefined ? '' : String(record.values[f.key]);
      if (!record ? vals[f.key] !== '' : vals[f.key] !== before) values[f.key] = typed(f.type, vals[f.key]);
    }
    void onSave(values);
  }}>
    ${fields.map((f) => {
      const id = `${prefix}-${f.key}`;
      const set = (e: Event) => setVals({ ...vals, [f.key]: (e.target as HTMLInputElement).value });
      return html`<label for=${id}>${f.name}</label>
        ${f.type === 'boolean'
          ? html`<select id=${id} value=${vals[f.key]} onChange=${set}><option value="">(empty)</option><option value="true">true</option><option value="false">false</option></select>`
          : html`<input id=${id} type=${INPUT_TYPE[f.type] ?? 'text'} step=${f.type === 'number' ? 'any' : undefined} value=${vals[f.key]} onInput=${set} />`}`;
    })}
    <button type="submit">${record ? 'Save record' : 'Add record'}</button>
  </form>`;
}

function Connections({ setKey }: { setKey: string }) {
  const { answer } = useApi(() => v3('GET', `/v3/data-sets/${enc(setKey)}/connections?pageSize=100`), [setKey]);
  return html`<section aria-labelledby="ds-conn-h"><h2 id="ds-conn-h">Connections</h2>
    <${Loaded} answer=${answer} what="connections">${(b: any) =>
      b.items.length === 0
        ? html`<p class="muted">No template field uses this Data Set.</p>`
        : html`<ul data-testid="connections">${b.items.map((c: any) => html`<li><a href=${`/app/templates/${enc(c.templateKey)}`}>${c.templateName}</a>: field ${c.fieldLabel} (${c.fieldType}) through view ${c.viewName}${c.isViewMissing ? html` <${Badge} kind="failed">view missing<//>` : ''}</li>`)}</ul>`}<//>
  </section>`;
}

const PAGE = 50;

export function DataSetPage({ setKey, query }: { setKey: string; query: URLSearchParams }) {
  const path = `/v3/data-sets/${enc(setKey)}`;
  const set = useApi(() => v3('GET', path), [path]);
  const [viewKey, setViewKey] = useState(query.get('view') ?? '');
  const [cursors, setCursors] = useState<string[]>([]);
  const [filter, setFilter] = useState('');
  const [editing, setEditing] = useState<string | undefined>(undefined);
  const act = useAction();
  const after = cursors[cursors.length - 1];
  const records = useApi(() => v3('GET', `${path}/records?pageSize=${PAGE}${viewKey ? `&viewKey=${enc(viewKey)}` : ''}${after ? `&after=${enc(after)}` : ''}`), [path, viewKey, after ?? '']);
  const importFile = (ev: Event) => sendPickedFile(ev, (file, data) => act.run(() => v3('POST', `${path}/import`, { file: { name: file.name, data } }), `Imported ${file.name}`));
  return html`<${Loaded} answer=${set.answer} what=${`GET ${path}`}>
    ${(d: any) => {
      const view = (d.views as any[]).find((v) => v.key === viewKey) ?? (d.views as any[]).find((v) => v.isDefault);
      const hidden = new Set<string>(view?.hiddenFields ?? []);
      const cols = (d.fields as any[]).filter((f) => !hidden.has(f.key));
      return html`<div class="crumbs"><a href="/app/data-sets">Data Sets</a> › <span>${d.name}</span></div>
        <h1>${d.name}</h1>
        <p class="summary"><${Badge} kind="muted">${d.source}<//> · ${d.recordCount} record${d.recordCount === 1 ? '' : 's'} · ${d.fields.length} fields${d.description ? ` · ${d.description}` : ''}</p>
        <form class="filters" aria-label="Records" onSubmit=${(e: Event) => e.preventDefault()}>
          <label>View <select value=${view?.key ?? ''} onChange=${(e: Event) => {
            setViewKey((e.target as HTMLSelectElement).value);
            setCursors([]);
            history.replaceState(null, '', `${location.pathname}?view=${enc((e.target as HTMLSelectElement).value)}`);
          }}>${(d.views as any[]).map((v) => html`<option value=${v.key}>${v.name}</option>`)}</select></label>
          <label>Filter the records shown <input type="search" value=${filter} onInput=${(e: Event) => setFilter((e.target as HTMLInputElement).value)} /></label>
          <button type="button" onClick=${() => saveDownload(consolePath(`${path}/export${view ? `?viewKey=${enc(view.key)}` : ''}`), session.key ? { 'X-API-KEY': session.key } : {}, 'data-set.csv').then((a) => act.run(async () => a, `Exported ${a.name ?? ''}`))}>Export CSV</button>
          <label>Import CSV (replaces the records) <input type="file" accept=".csv,text/csv" onChange=${importFile} /></label>
        </form>
        ${view && (view.filters.length > 0 || view.sorts.length > 0) && html`<p class="muted">View ${view.name}: ${view.filters.length} filter${view.filters.length === 1 ? '' : 's'}, ${view.sorts.length} sort${view.sorts.length === 1 ? '' : 's'}${hidden.size ? `, ${hidden.size} hidden field${hidden.size === 1 ? '' : 's'}` : ''}.</p>`}
        <${ViewsEditing} path=${path} d=${d} view=${view} chosen=${(k: string) => {
          setViewKey(k);
          setCursors([]);
          history.replaceState(null, '', k ? `${location.pathname}?view=${enc(k)}` : location.pathname);
          set.reload();
        }} />
        ${act.refusal && html`<${Refusal} status=${act.refusal.status} error=${act.refusal.error!} what="Data Set" />`}
        <${Loaded} answer=${records.answer} what="records">${(b: any) => {
          const needle = filter.trim().toLowerCase();
          const rows = (b.items as any[]).filter((r) => !needle || cols.some((f) => String(r.values[f.key] ?? '').toLowerCase().includes(needle)));
          return html`<nav class="pager" aria-label="Record pages">
              <button type="button" class="small" disabled=${cursors.length === 0} onClick=${() => setCursors(cursors.slice(0, -1))}>Previous<span class="sr-only"> records</span></button>
              <span>${b.total === 0 ? 'no records' : `${cursors.length * PAGE + 1}–${cursors.length * PAGE + b.items.length} of ${b.total}`}${needle ? ` (${rows.length} shown)` : ''}</span>
              <button type="button" class="small" disabled=${!b.hasMore} onClick=${() => setCursors([...cursors, b.nextCursor])}>Next<span class="sr-only"> records</span></button>
            </nav>
            <${Wide} label="Records"><table data-testid="records">
              <thead><tr>${cols.map((f) => html`<th scope="col">${f.name} <span class="muted type">${f.type}</span></th>`)}<th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
              <tbody>${rows.map((r) =>
                editing === r.key
                  ? html`<tr><td colspan=${cols.length + 1}><${RecordForm} label=${`Edit record ${r.key}`} fields=${cols} record=${r} onSave=${(values: Record<string, unknown>) => act.run(() => v3('PATCH', `${path}/records/${enc(r.key)}`, { values }), 'Record saved', () => setEditing(undefined))} /></td></tr>`
                  : html`<tr data-record=${r.key}>${cols.map((f) => html`<td>${r.values[f.key] === undefined ? '' : String(r.values[f.key])}</td>`)}
                      <td><button type="button" class="small" onClick=${() => setEditing(r.key)}>Edit<span class="sr-only"> record ${r.key}</span></button>
                        <button type="button" class="small" onClick=${() => confirm('Delete this record?') && act.run(() => v3('DELETE', `${path}/records/${enc(r.key)}`), 'Record deleted')}>Delete<span class="sr-only"> record ${r.key}</span></button></td></tr>`,
              )}</tbody>
            </table><//>`;
        }}<//>
        <section aria-labelledby="ds-add-h"><h2 id="ds-add-h">Add a record</h2>
          <${RecordForm} label="New record" fields=${d.fields} onSave=${(values: Record<string, unknown>) => act.run(() => v3('POST', `${path}/records`, { values }), 'Record added')} key=${d.recordCount} />
        </section>
        <${Connections} setKey=${setKey} />`;
    }}
  <//>`;
}
