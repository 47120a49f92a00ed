// One task (checklist task or standalone): status actions, fields answered by type, files,
// table rows, assignees, due date, tags and comments. Every write is the v3 route and a
// refusal is shown as the API words it.
import { useEffect, useRef, useState } from 'preact/hooks';
import { html } from '../html';
import { v3, enc, appPath } from '../api';
import { useApi } from '../hooks';
import { useAction } from '../action';
import { Loaded, Refusal, Badge, Time, Wide, isOverdue, names } from '../parts';
import { useLive, emulatorNow } from '../live';
import { StandaloneActions } from './manage';

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

function hint(f: any): string {
  if (f.type === 'Date') return f.mode === 'time' ? 'HH:MM' : f.mode === 'date-and-time' ? 'ISO 8601, e.g. 2026-03-02T09:00:00Z' : 'YYYY-MM-DD';
  if (f.type === 'Members') return 'names, emails or member ids, comma-separated';
  if (LIST_TYPES.has(f.type)) return 'comma-separated';
  if (f.type === 'DropDown') return 'an option text';
  return '';
}

function FileField({ base, f }: { base: string; f: any }) {
  const act = useAction();
  const files: any[] = Array.isArray(f.value) ? f.value : [];
  const upload = async (ev: Event) => {
    const input = ev.target as HTMLInputElement;
    const file = input.files?.[0];
    if (!file) return;
    const bytes = new Uint8Array(await file.arrayBuffer());
    let bin = '';
    for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    await act.run(() => v3('POST', `${base}/fields/${enc(f.key)}/files`, { name: file.name, contentType: file.type || undefined, data: btoa(bin) }), `Uploaded ${file.name}`);
    input.value = '';
  };
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

function TableField({ base, f }: { base: string; f: any }) {
  const act = useAction();
  const cols: any[] = f.columns ?? [];
  const rows: any[][] = Array.isArray(f.value) ? f.value : [];
  const [draft, setDraft] = useState<string[]>([]);
  return html`<div class="table-field">
    <${Wide} label=${`${f.name} rows`}>
      <table>
        <caption class="sr-only">${f.name}</caption>
        <thead><tr><th scope="col">#</th>${cols.map((c) => html`<th scope="col">${c.name}</th>`)}<th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
        <tbody>
          ${rows.map(
            (r, i) => html`<tr><td>${i + 1}</td>${cols.map((_c, j) => html`<td>${r[j] ?? ''}</td>`)}
              <td><button type="button" class="small" onClick=${() => act.run(() => v3('DELETE', `${base}/fields/${enc(f.key)}/rows?rowIndexes=${i + 1}`), `Removed row ${i + 1}`)}>Remove<span class="sr-only"> row ${i + 1}</span></button></td></tr>`,
          )}
        </tbody>
      </table>
    <//>
    <fieldset class="inline">
      <legend>Add a row to ${f.name}</legend>
      ${cols.map(
        (c, j) => html`<label>${c.name} <input value=${draft[j] ?? ''} onInput=${(e: Event) => {
          const next = [...draft];
          next[j] = (e.target as HTMLInputElement).value;
          setDraft(next);
        }} /></label>`,
      )}
      <button type="button" onClick=${() => act.run(() => v3('POST', `${base}/fields/${enc(f.key)}/rows`, { rows: [cols.map((_c, j) => draft[j] || null)] }), 'Row added', () => setDraft([]))}>Add row</button>
    </fieldset>
    ${act.refusal && html`<${Refusal} status=${act.refusal.status} error=${act.refusal.error!} />`}
  </div>`;
}

function Fields({ base, fields }: { base: string; fields: any[] }) {
  const act = useAction();
  const [edits, setEdits] = useState<Record<string, string>>({});
  const simple = fields.filter((f) => f.type !== 'FileUpload' && f.type !== 'Table');
  const save = (ev: Event) => {
    ev.preventDefault();
    const changed = simple.filter((f) => edits[f.key] !== undefined && edits[f.key] !== toText(f));
    if (changed.length === 0) return;
    void act.run(() => v3('PATCH', `${base}/fields`, { fields: changed.map((f) => ({ key: f.key, value: fromText(f, edits[f.key]) })) }), `Saved ${changed.length} field${changed.length === 1 ? '' : 's'}`, () => setEdits({}));
  };
  if (fields.length === 0) return html`<p class="muted">No fields.</p>`;
  return html`<form class="fields" onSubmit=${save} aria-label="Fields">
    ${fields.map((f) => {
      const id = `field-${f.key}`;
      const label = html`<label for=${id}>${f.name}${f.isRequired ? html` <span class="req">(required)</span>` : ''} <span class="muted type">${f.type}</span></label>`;
      if (f.type === 'FileUpload') return html`<div class="field"><span class="label">${f.name}${f.isRequired ? ' (required)' : ''} <span class="muted type">${f.type}</span></span><${FileField} base=${base} f=${f} /></div>`;
      if (f.type === 'Table') return html`<div class="field"><span class="label">${f.name} <span class="muted type">${f.type}</span></span><${TableField} base=${base} f=${f} /></div>`;
      const value = edits[f.key] ?? toText(f);
      const onInput = (e: Event) => setEdits({ ...edits, [f.key]: (e.target as HTMLInputElement).value });
      const h = hint(f);
      return html`<div class="field">${label}
        ${f.type === 'LongText'
          ? html`<textarea id=${id} rows="3" value=${value} onInput=${onInput} aria-required=${f.isRequired ? 'true' : undefined}></textarea>`
          : html`<input id=${id} type=${TEXT_TYPES.has(f.type) ? inputKind(f) : 'text'} value=${value} onInput=${onInput} aria-required=${f.isRequired ? 'true' : undefined} aria-describedby=${h ? `${id}-hint` : undefined} />`}
        ${h && html`<span id=${`${id}-hint`} class="muted hint">${h}</span>`}
      </div>`;
    })}
    ${simple.length > 0 && html`<button type="submit" aria-disabled=${act.busy ? 'true' : undefined}>Save fields</button>`}
    ${act.refusal && html`<${Refusal} status=${act.refusal.status} error=${act.refusal.error!} what="PATCH fields" />`}
  </form>`;
}

function Comments({ base, comments }: { base: string; comments: any[] }) {
  const act = useAction();
  const [text, setText] = useState('');
  const [mention, setMention] = useState('');
  return html`<section aria-labelledby="comments-h">
    <h3 id="comments-h">Comments (${comments.length})</h3>
    <ol class="comments">
      ${comments.map(
        (c) => html`<li data-testid="comment">
          <p class="muted">${c.createdBy?.name ?? 'someone'} · <${Time} value=${c.createdDateTime} /></p>
          <p class="comment-text">${c.text}</p>
          ${(c.mentions ?? []).length > 0 && html`<p class="muted">mentions ${names(c.mentions)}</p>`}
          ${c.attachment && html`<p><a href=${c.attachment.url} download>${c.attachment.name}</a></p>`}
          <button type="button" class="small" onClick=${() => act.run(() => v3('DELETE', `${base}/comments/${c.id}`), 'Comment deleted')}>Delete<span class="sr-only"> comment ${c.id}</span></button>
        </li>`,
      )}
    </ol>
    <form
      class="stack"
      onSubmit=${(e: Event) => {
        e.preventDefault();
        const body: any = { text };
        const who = mention.split(',').map((s) => s.trim()).filter(Boolean);
        if (who.length) body.assignedMentioned = who.map((name) => ({ name }));
        void act.run(() => v3('POST', `${base}/comments`, body), 'Comment added', () => (setText(''), setMention('')));
      }}
    >
      <label for="comment-text">Add a comment</label>
      <textarea id="comment-text" rows="2" value=${text} onInput=${(e: Event) => setText((e.target as HTMLTextAreaElement).value)}></textarea>
      <label for="comment-mention">Mention and assign (names or emails, comma-separated)</label>
      <input id="comment-mention" value=${mention} onInput=${(e: Event) => setMention((e.target as HTMLInputElement).value)} />
      <button type="submit" aria-disabled=${act.busy ? 'true' : undefined}>Comment</button>
    </form>
    ${act.refusal && html`<${Refusal} status=${act.refusal.status} error=${act.refusal.error!} what="comment" />`}
  </section>`;
}

function People({ base, t }: { base: string; t: any }) {
  const act = useAction();
  const [who, setWho] = useState('');
  const [due, setDue] = useState('');
  return html`<section aria-labelledby="people-h">
    <h3 id="people-h">Assignees and due date</h3>
    <p>Assigned: ${t.assignees.length ? names(t.assignees) : html`<span class="muted">nobody</span>`}${t.isAssignedExclusively ? ' (exclusively)' : ''}</p>
    <form class="inline" onSubmit=${(e: Event) => {
      e.preventDefault();
      const list = who.split(',').map((s) => s.trim()).filter(Boolean).map((name) => ({ name }));
      void act.run(() => v3('PUT', `${base}/assignees`, { assignees: list }), 'Assignees set', () => setWho(''));
    }}>
      <label for="assign-input">Assign (names, emails or groups, comma-separated; replaces)</label>
      <input id="assign-input" value=${who} onInput=${(e: Event) => setWho((e.target as HTMLInputElement).value)} />
      <button type="submit">Assign</button>
      <button type="button" onClick=${() => act.run(() => v3('DELETE', `${base}/assignees`), 'Assignees cleared')}>Clear assignees</button>
    </form>
    <p>Due: ${t.dueDateTime ? html`<${Time} value=${t.dueDateTime} />` : html`<span class="muted">no due date</span>`}</p>
    <form class="inline" onSubmit=${(e: Event) => {
      e.preventDefault();
      void act.run(() => v3('PUT', `${base}/due-date`, { dueDateTime: due }), 'Due date set', () => setDue(''));
    }}>
      <label for="due-input">Set due date (ISO 8601)</label>
      <input id="due-input" placeholder="2026-03-02T09:00:00Z" value=${due} onInput=${(e: Event) => setDue((e.target as HTMLInputElement).value)} />
      <button type="submit">Set due date</button>
      <button type="button" onClick=${() => act.run(() => v3('DELETE', `${base}/due-date`), 'Due date cleared')}>Clear due date</button>
    </form>
    ${act.refusal && html`<${Refusal} status=${act.refusal.status} error=${act.refusal.error!} />`}
  </section>`;
}

function Tags({ base, t }: { base: string; t: any }) {
  const act = useAction();
  const [tag, setTag] = useState('');
  const tags: string[] = t.tags ?? [];
  return html`<section aria-labelledby="task-tags-h">
    <h3 id="task-tags-h">Tags</h3>
    <p>${tags.length === 0 ? html`<span class="muted">none</span>` : tags.map((x) => html`<span class="badge badge-muted">${x} <button type="button" class="small" onClick=${() => act.run(() => v3('DELETE', `${base}/tags?name=${enc(x)}`), `Tag ${x} removed`)}>Remove<span class="sr-only"> tag ${x}</span></button></span> `)}</p>
    <form class="inline" onSubmit=${(e: Event) => {
      e.preventDefault();
      void act.run(() => v3('POST', `${base}/tags`, { tags: [tag] }), `Tag ${tag} added`, () => setTag(''));
    }}>
      <label for="task-tag-input">Add a tag</label>
      <input id="task-tag-input" value=${tag} onInput=${(e: Event) => setTag((e.target as HTMLInputElement).value)} />
      <button type="submit">Add task tag</button>
    </form>
    ${act.refusal && html`<${Refusal} status=${act.refusal.status} error=${act.refusal.error!} what="tags" />`}
  </section>`;
}

function StatusActions({ base, t }: { base: string; t: any }) {
  const act = useAction();
  const b = (label: string, method: string, suffix: string, done: string) =>
    html`<button type="button" aria-disabled=${act.busy ? 'true' : undefined} onClick=${() => act.run(() => v3(method, `${base}/${suffix}`), done)}>${label}</button>`;
  return html`<div class="actions" role="group" aria-label="Task status" data-focus-group>
    ${t.status === 'Complete' ? b('Uncomplete', 'DELETE', 'complete', 'Task uncompleted') : b('Complete task', 'POST', 'complete', 'Task completed')}
    ${t.status === 'NotApplicable' ? b('Clear not applicable', 'DELETE', 'not-applicable', 'Not applicable cleared') : t.status !== 'Complete' && b('Not applicable', 'POST', 'not-applicable', 'Marked not applicable')}
    ${act.refusal && html`<${Refusal} status=${act.refusal.status} error=${act.refusal.error!} what="status" />`}
  </div>`;
}

export function TaskPanel({ base }: { base: string }) {
  const { answer } = useApi(() => v3('GET', base), [base]);
  // Opening a task puts focus on its heading (and, on a narrow screen, the detail in view).
  const focused = useRef('');
  useEffect(() => {
    if (!answer?.ok || focused.current === base) return;
    focused.current = base;
    const h = document.getElementById('task-h');
    if (!h) return;
    h.focus();
    if (window.matchMedia('(max-width: 800px)').matches) h.scrollIntoView({ block: 'start' });
  }, [answer, base]);
  const { live } = useLive();
  const now = emulatorNow(live);
  return html`<${Loaded} answer=${answer} what=${`GET ${base}`}>
    ${(t: any) => html`<article class="task-card" aria-labelledby="task-h" data-status=${t.status}>
      <h2 id="task-h" tabindex="-1">${t.name}</h2>
      <p class="summary">
        ${t.isHeading ? html`<${Badge} kind="muted">heading<//>` : html`<${Badge} kind=${t.status} testid="task-status">${t.status}<//>`}
        ${isOverdue(t, now) && html` <${Badge} kind="Overdue">Overdue<//>`}
        ${t.isCurrentlyHalted && html` <${Badge} kind="halted">Halted behind a stop task<//>`}
        ${t.isCurrentlyHidden && html` <${Badge} kind="muted">Hidden by a condition<//>`}
        ${t.completedDateTime && html` · completed <${Time} value=${t.completedDateTime} />${t.completedBy ? ` by ${t.completedBy.name}` : ''}`}
        ${t.notApplicableDateTime && html` · not applicable since <${Time} value=${t.notApplicableDateTime} />`}
        ${t.checklist && html` · in <a href=${appPath(t.checklist.url)}>${t.checklist.name}</a>`}
      </p>
      ${t.description && html`<p>${t.description}</p>`}
      ${!t.isHeading && html`<${StatusActions} base=${base} t=${t} />`}
      <section aria-labelledby="fields-h"><h3 id="fields-h">Fields</h3><${Fields} base=${base} fields=${t.fields ?? []} key=${base} /></section>
      ${!t.isHeading && html`<${People} base=${base} t=${t} />`}
      ${!t.isHeading && html`<${Tags} base=${base} t=${t} />`}
      ${!t.isHeading && html`<${Comments} base=${base} comments=${t.comments ?? []} />`}
      ${base.startsWith('/v3/tasks/') && html`<${StandaloneActions} t=${t} />`}
    </article>`}
  <//>`;
}

export function StandaloneTaskPage({ taskKey }: { taskKey: string }) {
  return html`<div class="crumbs"><a href="/app/my-work">My work</a> › <span>standalone task</span></div>
    <h1 class="sr-only">Standalone task</h1>
    <${TaskPanel} base=${`/v3/tasks/${enc(taskKey)}`} />`;
}

