// The structured half of the template editor: tasks and headings (add, rename, reorder,
// remove, stop task, due date), their fields (every content type, label, required, options
// or a Data Set link) and conditions. Each control sits at a document path; the violations
// the validator places there are listed under it and named by its aria-describedby. Labels
// are interpolated by htm, so markup typed into one stays text.
import { useContext, useState } from 'preact/hooks';
import { html } from '../html';
import { v3, enc } from '../api';
import { useApi } from '../hooks';
import { type Doc, type Path, type Violation, FIELD_TYPES, ANSWERABLE, CHOICE_TYPES, OPERATORS, IssuesContext, idOf, jsonPath, getAt, setAt, moveAt, freshRef, ensureRef, linesToChoices, targetsOf } from './authoring-model';

export type Edit = (change: (d: Doc) => Doc) => void;

/** The violations placed at a path, errors apart from warnings. */
export function Issues({ at }: { at: Path | string }) {
  const list: Violation[] = useContext(IssuesContext).get(typeof at === 'string' ? at : jsonPath(at)) ?? [];
  if (list.length === 0) return null;
  const errors = list.filter((v) => v.severity === 'error');
  const warnings = list.filter((v) => v.severity !== 'error');
  const item = (v: Violation) => html`<li data-code=${v.code} data-path=${v.path}>${v.message}${v.hint ? html` <span class="muted">${v.hint}</span>` : ''} <code class="muted">${v.code}</code></li>`;
  return html`<div id=${`${idOf(at)}-issues`} class="issues" data-testid="issues">
    ${errors.length > 0 && html`<p class="issue-head issue-error">Error${errors.length > 1 ? 's' : ''}</p><ul class="issue-list issue-error">${errors.map(item)}</ul>`}
    ${warnings.length > 0 && html`<p class="issue-head issue-warning">Warning${warnings.length > 1 ? 's' : ''}</p><ul class="issue-list issue-warning">${warnings.map(item)}</ul>`}
  </div>`;
}

/** aria-describedby and aria-invalid of the control at a path, from its placed violations. */
function useMarks(at: Path): Record<string, string | undefined> {
  const list = useContext(IssuesContext).get(jsonPath(at)) ?? [];
  return { 'aria-describedby': list.length ? `${idOf(at)}-issues` : undefined, 'aria-invalid': list.some((v) => v.severity === 'error') ? 'true' : undefined };
}

const value = (e: Event) => (e.target as HTMLInputElement).value;
const checked = (e: Event) => (e.target as HTMLInputElement).checked;
/** Puts focus on the control with this id once it is on the page. */
export const focusSoon = (id: string) => requestAnimationFrame(() => requestAnimationFrame(() => document.getElementById(id)?.focus()));

/** A text input bound to the document at a path (an empty value removes optional ones). */
function TextAt({ doc, edit, at, label, keepEmpty, area }: { doc: Doc; edit: Edit; at: Path; label: string; keepEmpty?: boolean; area?: boolean }) {
  const marks = useMarks(at);
  const v = getAt(doc, at);
  const onInput = (e: Event) => edit((d) => setAt(d, at, value(e) === '' && !keepEmpty ? undefined : value(e)));
  return html`<span class="ed-control">
    <label for=${idOf(at)}>${label}</label>
    ${area
      ? html`<textarea id=${idOf(at)} rows="3" ...${marks} value=${v ?? ''} onInput=${onInput}></textarea>`
      : html`<input id=${idOf(at)} ...${marks} value=${v ?? ''} onInput=${onInput} />`}
    <${Issues} at=${at} />
  </span>`;
}

function CheckAt({ doc, edit, at, label }: { doc: Doc; edit: Edit; at: Path; label: string }) {
  const marks = useMarks(at);
  return html`<span class="ed-control"><label class="check"><input type="checkbox" id=${idOf(at)} ...${marks} checked=${!!getAt(doc, at)} onChange=${(e: Event) => edit((d) => setAt(d, at, checked(e) || undefined))} /> ${label}</label><${Issues} at=${at} /></span>`;
}

/** A select bound to the document at a path; `fallback` is what an absent property means (the format's default). */
function SelectAt({ doc, edit, at, label, options, fallback = '' }: { doc: Doc; edit: Edit; at: Path; label: string; options: [string, string][]; fallback?: string }) {
  const marks = useMarks(at);
  const held = String(getAt(doc, at) ?? fallback);
  // A value the list does not offer (typed in the document editor) is shown as itself, not as a blank.
  const list: [string, string][] = options.some(([v]) => v === held) ? options : [...options, [held, held]];
  return html`<span class="ed-control">
    <label for=${idOf(at)}>${label}</label>
    <select id=${idOf(at)} ...${marks} value=${held} onChange=${(e: Event) => edit((d) => setAt(d, at, value(e) || undefined))}>${list.map(([v, t]) => html`<option value=${v}>${t}</option>`)}</select>
    <${Issues} at=${at} />
  </span>`;
}

/** Move up, move down, remove: each names what it acts on for a screen reader. */
function ItemButtons({ edit, at, what, count, focusAfter }: { edit: Edit; at: Path; what: string; count: number; focusAfter: (i: number) => string }) {
  const i = at[at.length - 1] as number;
  const move = (by: number) => {
    edit((d) => moveAt(d, at, by));
    focusSoon(`${focusAfter(i + by)}-${by < 0 ? 'up' : 'down'}`);
  };
  return html`<span class="ed-buttons">
    <button type="button" class="small" id=${`${focusAfter(i)}-up`} aria-disabled=${i === 0 ? 'true' : undefined} onClick=${() => i > 0 && move(-1)}>Move up<span class="sr-only"> ${what}</span></button>
    <button type="button" class="small" id=${`${focusAfter(i)}-down`} aria-disabled=${i === count - 1 ? 'true' : undefined} onClick=${() => i < count - 1 && move(1)}>Move down<span class="sr-only"> ${what}</span></button>
    <button type="button" class="small" onClick=${() => edit((d) => setAt(d, at, undefined))}>Remove<span class="sr-only"> ${what}</span></button>
  </span>`;
}

/** A Data Set link: the set by name, its view and display field (docs/template-document.md). */
function DataSetLink({ doc, edit, at, sets }: { doc: Doc; edit: Edit; at: Path; sets: any[] }) {
  const link = getAt(doc, at) ?? {};
  const set = sets.find((s) => s.name === link.name);
  const detail = useApi(() => (set ? Promise.all([v3('GET', `/v3/data-sets/${enc(set.key)}`), v3('GET', `/v3/data-sets/${enc(set.key)}/views?pageSize=100`)]).then(([d, w]) => ({ ok: true, status: 200, body: { fields: d.ok ? d.body.fields : [], views: w.ok ? w.body.items : [] } })) : Promise.resolve({ ok: true, status: 200, body: { fields: [], views: [] } })), [set?.key], 'none');
  const fields: any[] = detail.answer?.body?.fields ?? [];
  const views: any[] = detail.answer?.body?.views ?? [];
  return html`<div class="inline ed-dataset">
    <${SelectAt} doc=${doc} edit=${edit} at=${[...at, 'name']} label="Data Set" options=${[['', 'choose…'], ...sets.map((s) => [s.name, s.name])]} />
    <${SelectAt} doc=${doc} edit=${edit} at=${[...at, 'view']} label="View" options=${[['', '(default view)'], ...views.map((w) => [w.name, w.name])]} />
    <${SelectAt} doc=${doc} edit=${edit} at=${[...at, 'displayField']} label="Display field" options=${[['', '(first field)'], ...fields.map((f) => [f.name, f.name])]} />
    <${Issues} at=${at} />
  </div>`;
}

/**
 * A list typed one item a line, sent to the document when it loses focus. What is being typed is
 * kept here until then: a render in between (a validation answer arriving) would otherwise put
 * the document's lines back into the box and lose the keys typed since.
 */
function LinesArea({ id, rows, marks, text, commit }: { id: string; rows: string; marks?: Record<string, unknown>; text: string; commit: (text: string) => void }) {
  const [draft, setDraft] = useState<string | null>(null);
  return html`<textarea id=${id} rows=${rows} ...${marks ?? {}} value=${draft ?? text}
    onInput=${(e: Event) => setDraft(value(e))}
    onChange=${(e: Event) => {
      commit(value(e));
      setDraft(null);
    }}></textarea>`;
}

/** One field: its label, required flag and the properties of its type. */
function FieldEditor({ doc, edit, at, count, sets, templates }: { doc: Doc; edit: Edit; at: Path; count: number; sets: any[]; templates: any[] }) {
  const f = getAt(doc, at) ?? {};
  const j = at[at.length - 1] as number;
  const what = `field ${j + 1}${f.label ? ` ${f.label}` : ''}`;
  const choiceKey = f.type === 'SubTasks' ? 'items' : 'options';
  const linked = f.dataSet !== undefined;
  const marks = useMarks([...at, choiceKey]);
  const source = (useSet: boolean) =>
    edit((d) => {
      const next = setAt(d, [...at, useSet ? choiceKey : 'dataSet'], undefined);
      return setAt(next, [...at, useSet ? 'dataSet' : choiceKey], useSet ? { name: sets[0]?.name ?? '' } : []);
    });
  return html`<li class="ed-field" data-path=${jsonPath(at)}>
    <fieldset>
      <legend>${f.type ?? 'Field'} field ${j + 1}${f.label ? `: ${f.label}` : ''}</legend>
      <${Issues} at=${at} />
      <${Issues} at=${[...at, 'type']} />
      <div class="inline">
        ${f.type !== 'Text' && html`<${TextAt} doc=${doc} edit=${edit} at=${[...at, 'label']} label="Label" />`}
        ${ANSWERABLE.has(f.type) && html`<${CheckAt} doc=${doc} edit=${edit} at=${[...at, 'isRequired']} label="Required" />`}
        <${ItemButtons} edit=${edit} at=${at} what=${what} count=${count} focusAfter=${(k: number) => idOf([...at.slice(0, -1), k])} />
      </div>
      ${CHOICE_TYPES.has(f.type) && html`<fieldset class="inline ed-source"><legend>${f.type === 'SubTasks' ? 'Items' : 'Options'} from</legend>
          <label class="check"><input type="radio" name=${`${idOf(at)}-source`} checked=${!linked} onChange=${() => source(false)} /> a list</label>
          <label class="check"><input type="radio" name=${`${idOf(at)}-source`} checked=${linked} onChange=${() => source(true)} /> a Data Set</label>
        </fieldset>
        ${linked
          ? html`<${DataSetLink} doc=${doc} edit=${edit} at=${[...at, 'dataSet']} sets=${sets} />`
          : html`<span class="ed-control"><label for=${idOf([...at, choiceKey])}>${f.type === 'SubTasks' ? 'Items' : 'Options'} (one a line)</label>
              <${LinesArea} id=${idOf([...at, choiceKey])} rows="3" marks=${marks} text=${(f[choiceKey] ?? []).map((o: any) => o?.text ?? '').join('\n')}
                commit=${(text: string) => edit((d) => setAt(d, [...at, choiceKey], linesToChoices(text, getAt(d, [...at, choiceKey]))))} />
              <${Issues} at=${[...at, choiceKey]} /></span>`}`}
      ${f.type === 'Table' && !f.dataSet && html`<span class="ed-control"><label for=${idOf([...at, 'columns'])}>Columns (one a line)</label>
        <${LinesArea} id=${idOf([...at, 'columns'])} rows="2" text=${(f.columns ?? []).map((c: any) => c?.name ?? '').join('\n')}
          commit=${(text: string) => edit((d) => setAt(d, [...at, 'columns'], linesToChoices(text, (getAt(d, [...at, 'columns']) ?? []).map((c: any) => ({ id: c?.id, text: c?.name }))).map((c) => ({ ...(c.id ? { id: c.id } : {}), name: c.text }))))} />
        <${Issues} at=${[...at, 'columns']} /></span>`}
      ${f.type === 'Date' && html`<${SelectAt} doc=${doc} edit=${edit} at=${[...at, 'mode']} label="Mode" options=${[['date', 'date'], ['time', 'time'], ['date-and-time', 'date and time']]} fallback="date" />`}
      ${f.type === 'Members' && html`<${SelectAt} doc=${doc} edit=${edit} at=${[...at, 'selectionMode']} label="Selection" options=${[['multiple', 'multiple'], ['single', 'single']]} fallback="multiple" />`}
      ${(f.type === 'ShortText' || f.type === 'LongText') && html`<${TextAt} doc=${doc} edit=${edit} at=${[...at, 'placeholder']} label="Placeholder" />`}
      ${f.type === 'Text' && html`<${TextAt} doc=${doc} edit=${edit} at=${[...at, 'content']} label="Content (HTML)" area=${true} />`}
      ${(f.type === 'Image' || f.type === 'Video') && html`<${TextAt} doc=${doc} edit=${edit} at=${[...at, 'url']} label="URL" />`}
      ${f.type === 'Image' && html`<${TextAt} doc=${doc} edit=${edit} at=${[...at, 'caption']} label="Caption" />`}
      ${f.type === 'LinkedChecklist' && html`<${SelectAt} doc=${doc} edit=${edit} at=${[...at, 'template']} label="Template to link" options=${[['', 'choose…'], ...templates.map((t) => [t.name, t.name])]} />`}
    </fieldset>
  </li>`;
}

/** A task's due date as one of the three rules (docs/template-document.md "Due dates"). */
function DueDate({ doc, edit, at }: { doc: Doc; edit: Edit; at: Path }) {
  const due = getAt(doc, at);
  const kind = due?.relativeTo ?? '';
  const tasks = targetsOf(doc).filter((x) => x.kind === 'task' && jsonPath(x.path) !== jsonPath(at.slice(0, -1)) && !getAt(doc, x.path)?.isHeading);
  const dates = targetsOf(doc).filter((x) => x.kind === 'field' && x.type === 'Date');
  const pick = (list: typeof tasks, prop: 'task' | 'field') => (e: Event) => {
    const x = list[Number(value(e))];
    if (!x) return edit((d) => setAt(d, [...at, prop], undefined));
    edit((d) => {
      const [next, ref] = ensureRef(d, x.path, prop);
      return setAt(next, [...at, prop], ref);
    });
  };
  const chosen = (list: typeof tasks, prop: string) => String(list.findIndex((x) => x.ref && x.ref === due?.[prop]));
  const num = (prop: string, label: string) => html`<span class="ed-control"><label for=${idOf([...at, prop])}>${label}</label>
    <input id=${idOf([...at, prop])} type="number" step="1" value=${due?.[prop] ?? ''} onInput=${(e: Event) => edit((d) => setAt(d, [...at, prop], value(e) === '' ? undefined : Number(value(e))))} /></span>`;
  return html`<fieldset class="inline ed-due"><legend>Due date</legend>
    <span class="ed-control"><label for=${idOf([...at, 'relativeTo'])}>Relative to</label>
      <select id=${idOf([...at, 'relativeTo'])} value=${kind} onChange=${(e: Event) => edit((d) => setAt(d, at, value(e) ? { relativeTo: value(e), offsetDays: due?.offsetDays ?? 1 } : undefined))}>
        <option value="">no due date</option><option value="checklistStart">the checklist's start</option><option value="taskCompletion">a task's completion</option><option value="dateField">a Date field</option>
      </select></span>
    ${kind === 'taskCompletion' && html`<span class="ed-control"><label for=${idOf([...at, 'task'])}>Task</label><select id=${idOf([...at, 'task'])} value=${chosen(tasks, 'task')} onChange=${pick(tasks, 'task')}><option value="-1">choose…</option>${tasks.map((x, n) => html`<option value=${String(n)}>${x.name}</option>`)}</select></span>`}
    ${kind === 'dateField' && html`<span class="ed-control"><label for=${idOf([...at, 'field'])}>Date field</label><select id=${idOf([...at, 'field'])} value=${chosen(dates, 'field')} onChange=${pick(dates, 'field')}><option value="-1">choose…</option>${dates.map((x, n) => html`<option value=${String(n)}>${x.name}</option>`)}</select></span>`}
    ${kind && num('offsetDays', 'Days after')}
    ${kind && num('offsetHours', 'Hours after')}
    <${Issues} at=${at} />
  </fieldset>`;
}

/** One task or heading with its fields. */
function TaskEditor({ doc, edit, i, sets, templates }: { doc: Doc; edit: Edit; i: number; sets: any[]; templates: any[] }) {
  const at: Path = ['tasks', i];
  const t = getAt(doc, at) ?? {};
  const fields: any[] = Array.isArray(t.fields) ? t.fields : [];
  const count = (doc.tasks ?? []).length;
  const kind = t.isHeading ? 'Heading' : 'Task';
  const what = `${kind.toLowerCase()} ${i + 1}${t.name ? ` ${t.name}` : ''}`;
  const addField = () => {
    const sel = document.getElementById(`${idOf(at)}-new-type`) as HTMLSelectElement | null;
    const type = sel?.value || 'ShortText';
    const extra = CHOICE_TYPES.has(type) ? { [type === 'SubTasks' ? 'items' : 'options']: [] } : type === 'Table' ? { columns: [] } : {};
    edit((d) => setAt(d, [...at, 'fields'], [...fields, { ref: freshRef(d, 'field'), type, ...(type === 'Text' ? { content: '' } : { label: '' }), ...extra }]));
    focusSoon(idOf([...at, 'fields', fields.length, type === 'Text' ? 'content' : 'label']));
  };
  return html`<li class=${`ed-task${t.isHeading ? ' ed-heading' : ''}`} data-path=${jsonPath(at)}>
    <fieldset>
      <legend>${kind} ${i + 1}${t.name ? `: ${t.name}` : ''}${t.isStop ? ' (stop task)' : ''}</legend>
      <${Issues} at=${at} />
      <div class="inline">
        <${TextAt} doc=${doc} edit=${edit} at=${[...at, 'name']} label=${t.isHeading ? 'Heading text' : 'Task name'} keepEmpty=${true} />
        ${!t.isHeading && html`<${CheckAt} doc=${doc} edit=${edit} at=${[...at, 'isStop']} label="Stop task" />`}
        <${ItemButtons} edit=${edit} at=${at} what=${what} count=${count} focusAfter=${(k: number) => idOf(['tasks', k])} />
      </div>
      ${!t.isHeading && html`<${DueDate} doc=${doc} edit=${edit} at=${[...at, 'dueDate']} />
        <${Issues} at=${[...at, 'fields']} />
        ${fields.length > 0 && html`<ol class="ed-fields">${fields.map((_f, j) => html`<${FieldEditor} doc=${doc} edit=${edit} at=${[...at, 'fields', j]} count=${fields.length} sets=${sets} templates=${templates} />`)}</ol>`}
        <div class="inline">
          <label for=${`${idOf(at)}-new-type`}>New field's type<span class="sr-only"> in ${what}</span></label>
          <select id=${`${idOf(at)}-new-type`}>${FIELD_TYPES.map((x) => html`<option value=${x}>${x}</option>`)}</select>
          <button type="button" onClick=${addField}>Add field<span class="sr-only"> to ${what}</span></button>
        </div>`}
    </fieldset>
  </li>`;
}

export function TasksEditor({ doc, edit, sets, templates }: { doc: Doc; edit: Edit; sets: any[]; templates: any[] }) {
  const tasks: any[] = Array.isArray(doc.tasks) ? doc.tasks : [];
  const add = (heading: boolean) => {
    edit((d) => setAt(d, ['tasks'], [...tasks, heading ? { ref: freshRef(d, 'heading'), name: '', isHeading: true } : { ref: freshRef(d, 'task'), name: '' }]));
    focusSoon(idOf(['tasks', tasks.length, 'name']));
  };
  return html`<section aria-labelledby="ed-tasks-h">
    <h2 id="ed-tasks-h">Tasks</h2>
    <${Issues} at="$.tasks" />
    ${tasks.length === 0 && html`<p class="muted">No tasks yet.</p>`}
    <ol class="ed-tasks">${tasks.map((_t, i) => html`<${TaskEditor} doc=${doc} edit=${edit} i=${i} sets=${sets} templates=${templates} />`)}</ol>
    <div class="actions"><button type="button" onClick=${() => add(false)}>Add task</button><button type="button" onClick=${() => add(true)}>Add heading</button></div>
  </section>`;
}

/** Conditions: show or hide tasks and fields when fields' answers match (docs/template-document.md "Conditions"). */
export function ConditionsEditor({ doc, edit }: { doc: Doc; edit: Edit }) {
  const conditions: any[] = Array.isArray(doc.conditions) ? doc.conditions : [];
  const all = targetsOf(doc);
  const fields = all.filter((x) => x.kind === 'field');
  const toggleTarget = (k: number, x: (typeof all)[number], on: boolean) =>
    edit((d) => {
      const [next, ref] = ensureRef(d, x.path, x.kind);
      const list: string[] = getAt(next, ['conditions', k, 'targets']) ?? [];
      return setAt(next, ['conditions', k, 'targets'], on ? [...list.filter((r) => r !== ref), ref] : list.filter((r) => r !== ref));
    });
  const setWhenField = (k: number, m: number, n: number) =>
    edit((d) => {
      const x = fields[n];
      if (!x) return setAt(d, ['conditions', k, 'when', m, 'field'], undefined);
      const [next, ref] = ensureRef(d, x.path, 'field');
      return setAt(next, ['conditions', k, 'when', m, 'field'], ref);
    });
  return html`<section aria-labelledby="ed-cond-h">
    <h2 id="ed-cond-h">Conditions</h2>
    <${Issues} at="$.conditions" />
    <ol class="ed-conditions">${conditions.map((c, k) => {
      const at: Path = ['conditions', k];
      const when: any[] = Array.isArray(c?.when) ? c.when : [];
      return html`<li data-path=${jsonPath(at)}><fieldset><legend>Condition ${k + 1}</legend>
        <${Issues} at=${at} />
        <div class="inline">
          <${SelectAt} doc=${doc} edit=${edit} at=${[...at, 'action']} label="Action" options=${[['show', 'show'], ['hide', 'hide']]} fallback="show" />
          <${SelectAt} doc=${doc} edit=${edit} at=${[...at, 'match']} label="When" options=${[['all', 'all rules match'], ['any', 'any rule matches']]} fallback="all" />
          <${ItemButtons} edit=${edit} at=${at} what=${`condition ${k + 1}`} count=${conditions.length} focusAfter=${(n: number) => idOf(['conditions', n])} />
        </div>
        <fieldset class="choices ed-targets"><legend>Targets</legend>
          ${all.map((x) => html`<label class="check"><input type="checkbox" checked=${!!x.ref && (c?.targets ?? []).includes(x.ref)} onChange=${(e: Event) => toggleTarget(k, x, checked(e))} /> ${x.name}</label>`)}
        </fieldset>
        <${Issues} at=${[...at, 'targets']} />
        <ol class="ed-rules">${when.map((w, m) => html`<li><div class="inline">
          <span class="ed-control"><label for=${idOf([...at, 'when', m, 'field'])}>Field</label>
            <select id=${idOf([...at, 'when', m, 'field'])} value=${String(fields.findIndex((x) => x.ref && x.ref === w?.field))} onChange=${(e: Event) => setWhenField(k, m, Number(value(e)))}>
              <option value="-1">choose…</option>${fields.map((x, n) => html`<option value=${String(n)}>${x.name}</option>`)}</select></span>
          <${SelectAt} doc=${doc} edit=${edit} at=${[...at, 'when', m, 'operator']} label="Operator" options=${[['', 'choose…'], ...OPERATORS.map((o) => [o, o])]} />
          ${!/^is(Not)?Empty$/.test(w?.operator ?? '') && html`<${TextAt} doc=${doc} edit=${edit} at=${[...at, 'when', m, 'value']} label="Value" keepEmpty=${true} />`}
          <button type="button" class="small" onClick=${() => edit((d) => setAt(d, [...at, 'when', m], undefined))}>Remove rule<span class="sr-only"> ${m + 1} of condition ${k + 1}</span></button>
        </div><${Issues} at=${[...at, 'when', m]} /></li>`)}</ol>
        <button type="button" class="small" onClick=${() => edit((d) => setAt(d, [...at, 'when'], [...when, { field: '', operator: 'is', value: '' }]))}>Add rule<span class="sr-only"> to condition ${k + 1}</span></button>
      </fieldset></li>`;
    })}</ol>
    <button type="button" onClick=${() => edit((d) => setAt(d, ['conditions'], [...conditions, { ref: freshRef(d, 'condition'), action: 'show', targets: [], when: [{ field: '', operator: 'is', value: '' }] }]))}>Add condition</button>
  </section>`;
}
