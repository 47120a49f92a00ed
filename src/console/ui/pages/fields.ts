// A task's fields, each answered with a control matching its type (docs/tasks.md "Field
// values"): DropDown a select of its options, Multi-Choice and Sub-Tasks checkboxes, fields
// linked to a Data Set the records of their view, Members a picker of active members, Date
// a date (or time) input, Table as rows, File Upload a file picker. The template document
// (read by the checklist page) supplies the options. The API judges every answer.
import { useState } from 'preact/hooks';
import { html } from '../html';
import { v3, enc } from '../api';
import { useApi } from '../hooks';
import { useAction } from '../action';
import { Refusal, Wide } from '../parts';
import { sendPickedFile } from '../files';

const TEXT_TYPES = new Set(['ShortText', 'LongText', 'EmailInput', 'Website']);
const LIST_TYPES = new Set(['MultiChoice', 'SubTasks']);

/** The text a field's answer shows as, and parses back from, in its input. */
function toText(f: any): string {
  const v = f.value;
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') return v;
  if (f.type === 'Members') return (v as any[]).map((m) => m.name ?? `#${m.id}`).join(', ');
  if (Array.isArray(v)) return v.map((x) => (typeof x === 'string' ? x : x?.text ?? '')).join(', ');
  if (typeof v === 'object' && 'text' in v) return String(v.text);
  if (typeof v === 'object' && 'checklistKey' in v) return String(v.checklistKey);
  return JSON.stringify(v);
}

function fromText(f: any, text: string): unknown {
  const t = text.trim();
  if (t === '') return null;
  const parts = () => t.split(',').map((s) => s.trim()).filter(Boolean);
  if (f.type === 'Members') return parts().map((p) => (/^\d+$/.test(p) ? Number(p) : { name: p }));
  if (LIST_TYPES.has(f.type)) return parts();
  if (f.type === 'LinkedChecklist') return { checklistKey: t };
  return text;
}

function inputKind(f: any): string {
  if (f.type === 'EmailInput') return 'email';
  if (f.type === 'Website') return 'url';
  return 'text';
}

function hint(f: any, def?: any): string {
  if (def?.dataSet) return `a record of the Data Set ${def.dataSet.name} (view ${def.dataSet.view})`;
  if (choicesOf(f, def) || f.type === 'Members') return '';
  if (f.type === 'Date') return f.mode === 'time' ? 'HH:MM' : f.mode === 'date-and-time' ? 'ISO 8601, e.g. 2026-03-02T09:00:00Z' : 'YYYY-MM-DD';
  if (f.type === 'Members') return 'names, emails or member ids, comma-separated';
  if (LIST_TYPES.has(f.type)) return 'comma-separated';
  if (f.type === 'DropDown') return 'an option text';
  return '';
}

function FileField({ base, f }: { base: string; f: any }) {
  const act = useAction();
  const files: any[] = Array.isArray(f.value) ? f.value : [];
  const upload = (ev: Event) =>
    sendPickedFile(ev, (file, data) => act.run(() => v3('POST', `${base}/fields/${enc(f.key)}/files`, { name: file.name, contentType: file.type || undefined, data }), `Uploaded ${file.name}`));
  return html`<div class="files">
    <ul>
      ${files.map(
        (x) => html`<li><a href=${x.url} download>${x.name}</a> <span class="muted">${x.size} bytes</span>
          <button type="button" class="small" onClick=${() => act.run(() => v3('DELETE', `${base}/fields/${enc(f.key)}/files/${x.id}`), `Removed ${x.name}`)}>Remove<span class="sr-only"> ${x.name}</span></button></li>`,
      )}
    </ul>
    <label>Add a file to ${f.name} <input type="file" onChange=${upload} aria-disabled=${act.busy ? 'true' : undefined} /></label>
    ${act.refusal && html`<${Refusal} status=${act.refusal.status} error=${act.refusal.error!} />`}
  </div>`;
}

/**
 * A Table field: each cell an input, edited in place and saved a row at a time (PATCH .../rows
 * with the changed cells), rows added and removed. While the task cannot take answers
 * (`readOnly`, the API's words) the cells are read-only and nothing offers to add or remove.
 */
function TableField({ base, f, readOnly }: { base: string; f: any; readOnly?: string }) {
  const act = useAction();
  const cols: any[] = f.columns ?? [];
  const rows: any[][] = Array.isArray(f.value) ? f.value : [];
  const [draft, setDraft] = useState<string[]>([]);
  const [edits, setEdits] = useState<Record<string, string>>({});
  const cellText = (v: any) => (v === null || v === undefined ? '' : String(v));
  const changedIn = (i: number) => cols.flatMap((_c, j) => (edits[`${i}:${j}`] !== undefined && edits[`${i}:${j}`] !== cellText(rows[i][j]) ? [{ rowIndex: i + 1, columnIndex: j + 1, value: edits[`${i}:${j}`] === '' ? null : edits[`${i}:${j}`] }] : []));
  const saveRow = (i: number) => {
    const cells = changedIn(i);
    if (cells.length === 0) return;
    void act.run(() => v3('PATCH', `${base}/fields/${enc(f.key)}/rows`, { cells }), `Saved row ${i + 1}`, () => setEdits(Object.fromEntries(Object.entries(edits).filter(([k]) => !k.startsWith(`${i}:`)))));
  };
  const describedBy = readOnly ? 'fields-read-only' : undefined;
  return html`<div class="table-field">
    <${Wide} label=${`${f.name} rows`}>
      <table>
        <caption class="sr-only">${f.name}</caption>
        <thead><tr><th scope="col">#</th>${cols.map((c) => html`<th scope="col">${c.name}</th>`)}${!readOnly && html`<th scope="col"><span class="sr-only">Actions</span></th>`}</tr></thead>
        <tbody>
          ${rows.map(
            (r, i) => html`<tr data-row=${i + 1}><td>${i + 1}</td>${cols.map((c, j) => html`<td><input class="cell" aria-label=${`Row ${i + 1} ${c.name}`} readonly=${!!readOnly} aria-describedby=${describedBy} value=${edits[`${i}:${j}`] ?? cellText(r[j])}
                onInput=${(e: Event) => setEdits({ ...edits, [`${i}:${j}`]: (e.target as HTMLInputElement).value })}
                onKeyDown=${(e: KeyboardEvent) => e.key === 'Enter' && (e.preventDefault(), saveRow(i))} /></td>`)}
              ${!readOnly && html`<td class="row-actions" data-focus-group>${changedIn(i).length > 0 && html`<button type="button" class="small" onClick=${() => saveRow(i)}>Save<span class="sr-only"> row ${i + 1}</span></button> `}<button type="button" class="small" onClick=${() => act.run(() => v3('DELETE', `${base}/fields/${enc(f.key)}/rows?rowIndexes=${i + 1}`), `Removed row ${i + 1}`)}>Remove<span class="sr-only"> row ${i + 1}</span></button></td>`}</tr>`,
          )}
        </tbody>
      </table>
    <//>
    ${!readOnly &&
    html`<fieldset class="inline">
      <legend>Add a row to ${f.name}</legend>
      ${cols.map(
        (c, j) => html`<label>${c.name} <input value=${draft[j] ?? ''} onInput=${(e: Event) => {
          const next = [...draft];
          next[j] = (e.target as HTMLInputElement).value;
          setDraft(next);
        }} /></label>`,
      )}
      <button type="button" onClick=${() => act.run(() => v3('POST', `${base}/fields/${enc(f.key)}/rows`, { rows: [cols.map((_c, j) => draft[j] || null)] }), 'Row added', () => setDraft([]))}>Add row</button>
    </fieldset>`}
    ${act.refusal && html`<${Refusal} status=${act.refusal.status} error=${act.refusal.error!} />`}
  </div>`;
}

/** Options of a field linked to a Data Set view: its records, shown by the display field. */
function useDataSetOptions(link: { name?: string; view?: string; displayField?: string } | undefined): { recordKey: string; text: string }[] | undefined {
  const { answer } = useApi(async () => {
    const none = { ok: true, status: 200, body: undefined };
    if (!link?.name) return none;
    const sets = await v3('GET', '/v3/data-sets?pageSize=100');
    const set = sets.ok ? (sets.body.items as any[]).find((d) => d.name === link.name) : undefined;
    if (!set) return none;
    const [detail, views] = await Promise.all([v3('GET', `/v3/data-sets/${enc(set.key)}`), v3('GET', `/v3/data-sets/${enc(set.key)}/views?pageSize=100`)]);
    const view = views.ok ? (views.body.items as any[]).find((v) => v.name === link.view) : undefined;
    const display = detail.ok ? (detail.body.fields as any[]).find((f) => f.name === link.displayField) : undefined;
    const records = await v3('GET', `/v3/data-sets/${enc(set.key)}/records?pageSize=100${view ? `&viewKey=${enc(view.key)}` : ''}`);
    if (!records.ok || !display) return none;
    return { ok: true, status: 200, body: (records.body.items as any[]).map((r) => ({ recordKey: r.key, text: String(r.values[display.key] ?? r.key) })) };
  }, [link?.name, link?.view, link?.displayField], 'none');
  return answer?.body as any;
}

/** Active members for a Members field (the API takes member ids; groups are not members' answers). */
function useMembers(on: boolean): { id: number; name: string }[] | undefined {
  const { answer } = useApi(() => (on ? v3('GET', '/v3/members?pageSize=100') : Promise.resolve({ ok: true, status: 200, body: undefined })), [on], 'none');
  const items = answer?.ok ? (answer.body?.items as any[] | undefined) : undefined;
  // Two people may share a name: the email tells them apart.
  return items?.filter((m) => m.isActive !== false && !m.isRemoved).map((m) => ({ id: m.id, name: m.email ? `${m.name} (${m.email})` : m.name }));
}

const textOf = (x: any) => (typeof x === 'string' ? x : (x?.text ?? ''));

/** What a field's control holds for its current answer: text, or the ticked choices. */
function current(f: any, def: any): string | string[] {
  const v = f.value;
  if (f.type === 'Members') return Array.isArray(v) ? v.map((m: any) => String(m.id)) : [];
  if (def?.dataSet && f.type === 'DropDown') return v && typeof v === 'object' ? String(v.recordKey ?? '') : '';
  if (def?.dataSet && f.type === 'MultiChoice') return Array.isArray(v) ? v.map((x: any) => String(x?.recordKey ?? textOf(x))) : [];
  if (LIST_TYPES.has(f.type) && choicesOf(f, def)) return Array.isArray(v) ? v.map(textOf) : [];
  return toText(f);
}

/** The answer the API takes for what a control holds. */
function answerOf(f: any, def: any, held: string | string[]): unknown {
  if (Array.isArray(held)) {
    if (held.length === 0) return null;
    if (f.type === 'Members') return held.map((id) => ({ type: 'TeamMember', id: Number(id) }));
    if (def?.dataSet) return held.map((recordKey) => ({ recordKey }));
    return held;
  }
  if (def?.dataSet && f.type === 'DropDown') return held ? { recordKey: held } : null;
  return fromText(f, held);
}

/** The fixed choices of a DropDown, Multi-Choice or Sub-Tasks field (its template's options or items). */
function choicesOf(f: any, def: any): string[] | undefined {
  const list = f.type === 'SubTasks' ? def?.items : def?.options;
  return Array.isArray(list) ? list.map(textOf) : undefined;
}

function Control({ f, def, id, held, set, disabled, describedBy }: { f: any; def: any; id: string; held: string | string[]; set: (v: string | string[]) => void; disabled: boolean; describedBy?: string }) {
  const linked = useDataSetOptions(def?.dataSet);
  const members = useMembers(f.type === 'Members');
  const choices = def?.dataSet ? linked?.map((o) => ({ value: o.recordKey, text: o.text })) : choicesOf(f, def)?.map((t) => ({ value: t, text: t }));
  const common = { id, disabled, 'aria-required': f.isRequired ? 'true' : undefined, 'aria-describedby': describedBy };
  if (f.type === 'DropDown' && choices) {
    return html`<select ...${common} value=${held as string} onChange=${(e: Event) => set((e.target as HTMLSelectElement).value)}>
      <option value="">(no answer)</option>
      ${choices.map((c) => html`<option value=${c.value}>${c.text}</option>`)}
    </select>`;
  }
  const ticks = (list: { value: string; text: string }[]) => {
    const on = new Set(held as string[]);
    return html`<fieldset id=${id} class="choices" disabled=${disabled} aria-describedby=${describedBy}>
      <legend class="sr-only">${f.name}</legend>
      ${list.map((c) => html`<label class="check"><input type="checkbox" checked=${on.has(c.value)} onChange=${(e: Event) => {
        const next = new Set(on);
        if ((e.target as HTMLInputElement).checked) next.add(c.value);
        else next.delete(c.value);
        set(list.map((x) => x.value).filter((x) => next.has(x)));
      }} /> ${c.text}</label>`)}
    </fieldset>`;
  };
  if (LIST_TYPES.has(f.type) && choices) return ticks(choices);
  if (f.type === 'Members' && members) {
    if (def?.selectionMode === 'multiple') return ticks(members.map((m) => ({ value: String(m.id), text: m.name })));
    return html`<select ...${common} value=${(held as string[])[0] ?? ''} onChange=${(e: Event) => {
      const v = (e.target as HTMLSelectElement).value;
      set(v ? [v] : []);
    }}>
      <option value="">(nobody)</option>
      ${members.map((m) => html`<option value=${String(m.id)}>${m.name}</option>`)}
    </select>`;
  }
  const onInput = (e: Event) => set((e.target as HTMLInputElement).value);
  if (f.type === 'LongText') return html`<textarea ...${common} rows="3" value=${held as string} onInput=${onInput}></textarea>`;
  const kind = f.type === 'Date' ? (f.mode === 'time' || def?.mode === 'time' ? 'time' : (f.mode ?? def?.mode ?? 'date') === 'date' ? 'date' : 'text') : TEXT_TYPES.has(f.type) ? inputKind(f) : 'text';
  return html`<input ...${common} type=${kind} value=${held as string} onInput=${onInput} />`;
}

/** The fields of a task, each with a control matching its type; read-only with the API's reason when the task cannot take answers now. */
export function Fields({ base, fields, defs, readOnly }: { base: string; fields: any[]; defs?: Map<string, any>; readOnly?: string }) {
  const act = useAction();
  const [edits, setEdits] = useState<Record<string, string | string[]>>({});
  // The keys sent, in order: a refusal's `field` (`fields[1].value`) names one of them by position.
  const [sent, setSent] = useState<string[]>([]);
  const simple = fields.filter((f) => f.type !== 'FileUpload' && f.type !== 'Table');
  const defOf = (f: any) => defs?.get(String(f.key).toLowerCase());
  const save = (ev: Event) => {
    ev.preventDefault();
    const changed = simple.filter((f) => edits[f.key] !== undefined && JSON.stringify(edits[f.key]) !== JSON.stringify(current(f, defOf(f))));
    if (changed.length === 0) return;
    setSent(changed.map((f) => f.key));
    void act.run(() => v3('PATCH', `${base}/fields`, { fields: changed.map((f) => ({ key: f.key, value: answerOf(f, defOf(f), edits[f.key]) })) }), `Saved ${changed.length} field${changed.length === 1 ? '' : 's'}`, () => setEdits({}));
  };
  // A refusal naming one sent field (`fields[i]...`, or its key) is shown at that field, under its label.
  const at = /^fields\[(\d+)\]/.exec(String(act.refusal?.error?.field ?? ''));
  const named = at ? sent[Number(at[1])] : fields.find((f) => f.key === act.refusal?.error?.field)?.key;
  const here = act.refusal && named && fields.some((f) => f.key === named) ? named : undefined;
  if (fields.length === 0) return html`<p class="muted">No fields.</p>`;
  return html`<form class="fields" onSubmit=${save} aria-label="Fields">
    ${readOnly && html`<p class="read-only" id="fields-read-only" data-testid="fields-read-only">${readOnly}</p>`}
    ${fields.map((f) => {
      const id = `field-${f.key}`;
      const def = defOf(f);
      const label = html`<label for=${id}>${f.name}${f.isRequired ? html` <span class="req">(required)</span>` : ''} <span class="muted type">${f.type}</span></label>`;
      if (f.type === 'FileUpload') return html`<div class="field"><span class="label">${f.name}${f.isRequired ? ' (required)' : ''} <span class="muted type">${f.type}</span></span><${FileField} base=${base} f=${f} /></div>`;
      if (f.type === 'Table') return html`<div class="field"><span class="label">${f.name} <span class="muted type">${f.type}</span></span><${TableField} base=${base} f=${f} readOnly=${readOnly} /></div>`;
      const h = hint(f, def);
      const refused = here === f.key;
      const describedBy = [h ? `${id}-hint` : '', readOnly ? 'fields-read-only' : '', refused ? `${id}-refusal` : ''].filter(Boolean).join(' ') || undefined;
      return html`<div class=${refused ? 'field refused' : 'field'}>${label}
        <${Control} f=${f} def=${def} id=${id} held=${edits[f.key] ?? current(f, def)} set=${(v: string | string[]) => setEdits({ ...edits, [f.key]: v })} disabled=${!!readOnly} describedBy=${describedBy} />
        ${h && html`<span id=${`${id}-hint`} class="muted hint">${h}</span>`}
        ${refused && html`<div id=${`${id}-refusal`}><${Refusal} status=${act.refusal!.status} error=${act.refusal!.error!} what="PATCH fields" fieldLabel=${f.name} /></div>`}
      </div>`;
    })}
    ${simple.length > 0 && !readOnly && html`<button type="submit" aria-disabled=${act.busy ? 'true' : undefined}>Save fields</button>`}
    ${act.refusal && !here && html`<${Refusal} status=${act.refusal.status} error=${act.refusal.error!} what="PATCH fields" />`}
  </form>`;
}
