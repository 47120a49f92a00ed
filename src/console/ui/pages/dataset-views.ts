// A Data Set's views made and changed in the console (issue 40; spec v3 4.7 through the view
// operations): name, filters (AND, the API's thirteen operators), sorts in order, hidden fields.
// A new view is POST .../views; a change PATCHes filters, sorts and hidden fields whole (and the
// name when it changed); delete. The API judges each: a refusal is its own, word for word.
import { useState } from 'preact/hooks';
import { html } from '../html';
import { v3, enc } from '../api';
import { useAction } from '../action';
import { inputValue } from '../forms';
import { Refusal } from '../parts';

const OPERATORS: [string, string][] = [
  ['eq', 'equals'], ['neq', 'does not equal'], ['contains', 'contains'], ['not_contains', 'does not contain'],
  ['starts_with', 'starts with'], ['ends_with', 'ends with'], ['gt', 'greater than'], ['gte', 'at least'],
  ['lt', 'less than'], ['lte', 'at most'], ['is_empty', 'is empty'], ['is_not_empty', 'is not empty'], ['in', 'is one of (comma-separated)'],
];
const NO_VALUE = new Set(['is_empty', 'is_not_empty']);

interface Filter { fieldKey: string; operator: string; value: string }
interface Sort { fieldKey: string; direction: 'asc' | 'desc' }

function ViewEditor({ path, fields, view, done }: { path: string; fields: any[]; view?: any; done: (key?: string) => void }) {
  const act = useAction();
  const id = view ? `view-${view.key}` : 'new-view';
  const [name, setName] = useState<string>(view?.name ?? '');
  const [filters, setFilters] = useState<Filter[]>((view?.filters ?? []).map((f: any) => ({ fieldKey: f.fieldKey, operator: f.operator, value: f.value ?? '' })));
  const [sorts, setSorts] = useState<Sort[]>([...(view?.sorts ?? [])].sort((a: any, b: any) => a.position - b.position).map((s: any) => ({ fieldKey: s.fieldKey, direction: s.direction })));
  const [hidden, setHidden] = useState<string[]>(view?.hiddenFields ?? []);
  const first = fields[0]?.key ?? '';
  const setFilter = (i: number, patch: Partial<Filter>) => setFilters(filters.map((f, j) => (j === i ? { ...f, ...patch } : f)));
  const setSort = (i: number, patch: Partial<Sort>) => setSorts(sorts.map((s, j) => (j === i ? { ...s, ...patch } : s)));
  const fieldSelect = (fid: string, label: string, value: string, onChange: (v: string) => void) =>
    html`<span class="pair"><label for=${fid}>${label}</label><select id=${fid} value=${value} onChange=${inputValue(onChange)}>${fields.map((f) => html`<option value=${f.key}>${f.name}</option>`)}</select></span>`;
  const submit = (e: Event) => {
    e.preventDefault();
    const body: Record<string, unknown> = {
      filters: filters.map((f) => (NO_VALUE.has(f.operator) ? { fieldKey: f.fieldKey, operator: f.operator } : { fieldKey: f.fieldKey, operator: f.operator, value: f.value })),
      sorts: sorts.map((s, i) => ({ fieldKey: s.fieldKey, direction: s.direction, position: i })),
      hiddenFields: hidden,
    };
    if (!view || name !== view.name) body.name = name;
    void act.run(
      () => (view ? v3('PATCH', `${path}/views/${enc(view.key)}`, body) : v3('POST', `${path}/views`, body)),
      view ? `View ${name} saved` : `View ${name} created`,
      (a) => done(a.body?.key),
    );
  };
  return html`<form class="view-editor card" aria-label=${view ? `Edit view ${view.name}` : 'New view'} onSubmit=${submit} novalidate data-focus-group>
    <h3>${view ? `Edit view ${view.name}` : 'New view'}</h3>
    <div class="inline">
      <span class="pair"><label for=${`${id}-name`}>View name</label>
      <input id=${`${id}-name`} value=${name} disabled=${view?.isDefault} aria-describedby=${view?.isDefault ? `${id}-fixed` : undefined} onInput=${inputValue(setName)} /></span>
      ${view?.isDefault && html`<span id=${`${id}-fixed`} class="muted">The All Records view keeps its name.</span>`}
    </div>
    <fieldset>
      <legend>Filters (a record passes all of them)</legend>
      ${filters.length === 0 && html`<p class="muted">None: every record.</p>`}
      ${filters.map((f, i) => html`<div class="inline" data-filter=${i}>
        ${fieldSelect(`${id}-filter-${i}-field`, `Filter ${i + 1} field`, f.fieldKey, (v) => setFilter(i, { fieldKey: v }))}
        <span class="pair"><label for=${`${id}-filter-${i}-op`}>Filter ${i + 1} operator</label>
        <select id=${`${id}-filter-${i}-op`} value=${f.operator} onChange=${inputValue((v) => setFilter(i, { operator: v }))}>${OPERATORS.map(([op, words]) => html`<option value=${op}>${words}</option>`)}</select></span>
        ${!NO_VALUE.has(f.operator) && html`<span class="pair"><label for=${`${id}-filter-${i}-value`}>Filter ${i + 1} value</label><input id=${`${id}-filter-${i}-value`} value=${f.value} onInput=${inputValue((v) => setFilter(i, { value: v }))} /></span>`}
        <button type="button" class="small" onClick=${() => setFilters(filters.filter((_, j) => j !== i))}>Remove filter ${i + 1}</button>
      </div>`)}
      <button type="button" class="small" onClick=${() => setFilters([...filters, { fieldKey: first, operator: 'eq', value: '' }])}>Add filter</button>
    </fieldset>
    <fieldset>
      <legend>Sorts (first one first)</legend>
      ${sorts.length === 0 && html`<p class="muted">None: the records' own order.</p>`}
      ${sorts.map((s, i) => html`<div class="inline" data-sort=${i}>
        ${fieldSelect(`${id}-sort-${i}-field`, `Sort ${i + 1} field`, s.fieldKey, (v) => setSort(i, { fieldKey: v }))}
        <span class="pair"><label for=${`${id}-sort-${i}-dir`}>Sort ${i + 1} direction</label>
        <select id=${`${id}-sort-${i}-dir`} value=${s.direction} onChange=${inputValue((v) => setSort(i, { direction: v as Sort['direction'] }))}><option value="asc">ascending</option><option value="desc">descending</option></select></span>
        ${i > 0 && html`<button type="button" class="small" onClick=${() => setSorts([...sorts.slice(0, i - 1), s, sorts[i - 1], ...sorts.slice(i + 1)])}>Move sort ${i + 1} up</button>`}
        <button type="button" class="small" onClick=${() => setSorts(sorts.filter((_, j) => j !== i))}>Remove sort ${i + 1}</button>
      </div>`)}
      <button type="button" class="small" onClick=${() => setSorts([...sorts, { fieldKey: first, direction: 'asc' }])}>Add sort</button>
    </fieldset>
    <fieldset class="choices">
      <legend>Hidden fields</legend>
      ${fields.map((f) => html`<label class="check"><input type="checkbox" checked=${hidden.includes(f.key)} onChange=${(e: Event) => setHidden((e.target as HTMLInputElement).checked ? [...hidden, f.key] : hidden.filter((k) => k !== f.key))} /> Hide ${f.name}</label>`)}
    </fieldset>
    <div class="actions">
      <button type="submit">${view ? 'Save view' : 'Create view'}</button>
      <button type="button" class="small" onClick=${() => done()}>Cancel</button>
      ${view && !view.isDefault && html`<button type="button" class="small" onClick=${() => confirm(`Delete the view ${view.name}?`) && act.run(() => v3('DELETE', `${path}/views/${enc(view.key)}`), `View ${view.name} deleted`, () => done(''))}>Delete view</button>`}
    </div>
    ${act.refusal && html`<${Refusal} status=${act.refusal.status} error=${act.refusal.error!} what="view" />`}
  </form>`;
}

/** "New view" and "Edit this view" under a Data Set's records; `chosen(key)` shows the view saved. */
export function ViewsEditing({ path, d, view, chosen }: { path: string; d: any; view?: any; chosen: (key: string) => void }) {
  const [editing, setEditing] = useState<'new' | 'this' | undefined>(undefined);
  const done = (key?: string) => {
    setEditing(undefined);
    if (key !== undefined) chosen(key);
  };
  if (editing) return html`<${ViewEditor} path=${path} fields=${d.fields} view=${editing === 'this' ? view : undefined} done=${done} key=${editing === 'this' ? view?.key : 'new'} />`;
  return html`<div class="actions">
    <button type="button" class="small" onClick=${() => setEditing('new')}>New view</button>
    ${view && html`<button type="button" class="small" onClick=${() => setEditing('this')}>Edit view ${view.name}</button>`}
  </div>`;
}
