// Template authoring: a new template, a new version of one, or a saved draft, edited in a
// structured form (tasks, headings, fields, due dates, conditions) and in the document
// editor, which always holds the whole template document as JSON. Each change is validated
// as you type (`POST /v3/templates/validate`, with `forTemplate` for a new version) and each
// violation is shown at the control its `path` points to, errors apart from warnings.
// Publishing is the API's create, new-version or draft-commit operation, then the template
// page of the published version, where its upgrade card is (the upgrade flow).
import { useEffect, useRef, useState } from 'preact/hooks';
import { html } from '../html';
import { v3, enc, type Answer } from '../api';
import { useApi } from '../hooks';
import { useAction, announce } from '../action';
import { navigate } from '../router';
import { Loaded, Refusal } from '../parts';
import { type Doc, type Violation, IssuesContext, placeViolations, idOf } from './authoring-model';
import { TasksEditor, ConditionsEditor, Issues } from './authoring-tasks';

const VALIDATE_DEBOUNCE_MS = 400;
const EMPTY: Doc = { name: '', tasks: [] };

type Source = { kind: 'new' } | { kind: 'version'; templateKey: string; version?: string } | { kind: 'draft'; draftKey: string };

export function NewTemplatePage() {
  return html`<${Editor} source=${{ kind: 'new' }} start=${EMPTY} />`;
}

export function EditTemplatePage({ templateKey, version }: { templateKey: string; version?: string }) {
  const q = version ? `?version=${enc(version)}` : '';
  const { answer } = useApi(() => v3('GET', `/v3/templates/${enc(templateKey)}/document${q}`), [templateKey, q], 'none');
  return html`<${Loaded} answer=${answer} what="export the template">${(d: Doc) => html`<${Editor} source=${{ kind: 'version', templateKey, version }} start=${d} />`}<//>`;
}

export function DraftPage({ draftKey }: { draftKey: string }) {
  const { answer } = useApi(() => v3('GET', `/v3/drafts/${enc(draftKey)}`), [draftKey], 'none');
  return html`<${Loaded} answer=${answer} what="GET draft">${(d: any) => html`<${Editor} source=${{ kind: 'draft', draftKey }} start=${d.document && typeof d.document === 'object' ? d.document : EMPTY} forTemplate=${d.template?.key} templateName=${d.template?.name} key=${draftKey} />`}<//>`;
}

const pretty = (d: unknown) => JSON.stringify(d, null, 2);

/** A JSON Merge Patch that turns the stored document into `doc`: top-level properties gone are null (arrays replace whole). */
function mergePatch(before: Doc | undefined, doc: Doc): Doc {
  const patch: Doc = { ...doc };
  for (const k of Object.keys(before ?? {})) if (!(k in doc)) patch[k] = null;
  return patch;
}

/** Polls a draft's commit until it has run (the API answers 202 and the state `pending` first). */
async function commitDraft(draftKey: string): Promise<Answer> {
  const started = await v3('POST', `/v3/drafts/${enc(draftKey)}/commit`);
  if (!started.ok) return started;
  for (let i = 0; i < 100; i++) {
    const s = await v3('GET', `/v3/drafts/${enc(draftKey)}/commit`);
    if (!s.ok || s.body.state !== 'pending') return s;
    await new Promise((r) => setTimeout(r, 150));
  }
  return { ok: false, status: 0, body: undefined, error: { code: 'COMMIT_PENDING', message: 'The commit is still pending; look at the draft again later.' } };
}

function Editor({ source, start, forTemplate, templateName }: { source: Source; start: Doc; forTemplate?: string; templateName?: string }) {
  const act = useAction();
  const [doc, setDoc] = useState<Doc>(start);
  const [text, setText] = useState(() => pretty(start));
  const [parseError, setParseError] = useState<string | undefined>(undefined);
  const [checked, setChecked] = useState<{ for: string; answer: Answer } | undefined>(undefined);
  const [refused, setRefused] = useState<Violation[] | undefined>(undefined);
  const saved = useRef<Doc | undefined>(source.kind === 'draft' ? start : undefined);
  const target = source.kind === 'version' ? source.templateKey : forTemplate;
  const sets = useApi(() => v3('GET', '/v3/data-sets?pageSize=100'), [], 'none').answer;
  const templates = useApi(() => v3('GET', '/v3/templates?pageSize=100'), [], 'none').answer;
  const serial = JSON.stringify(doc);
  const validate = (body: string) => v3('POST', `/v3/templates/validate${target ? `?forTemplate=${enc(target)}` : ''}`, JSON.parse(body));

  // Validation as you type: the newest document only, a moment after the last keystroke.
  useEffect(() => {
    let gone = false;
    const t = setTimeout(() => void validate(serial).then((answer) => gone || setChecked({ for: serial, answer })), VALIDATE_DEBOUNCE_MS);
    return () => ((gone = true), clearTimeout(t));
  }, [serial, target]);

  const edit = (change: (d: Doc) => Doc) =>
    setDoc((d) => {
      const next = change(d);
      setText(pretty(next));
      setParseError(undefined);
      setRefused(undefined);
      return next;
    });
  const current = checked?.for === serial ? checked.answer : undefined;
  const violations: Violation[] = refused ?? (current?.ok ? current.body.violations : []);
  const placed = placeViolations(doc, violations);
  const errors = violations.filter((v) => v.severity === 'error').length;
  const warnings = violations.length - errors;

  /** The document as sent, validated first unless the newest check covers it; sent unvalidated only after saying so. */
  async function checkedBeforeSending(): Promise<boolean> {
    if (parseError) {
      announce('The document editor holds text that is not JSON; nothing was sent.');
      document.getElementById('ed-document')?.focus();
      return false;
    }
    const answer = current ?? (await validate(serial));
    setChecked({ for: serial, answer });
    if (answer.ok) return true;
    const send = confirm(`The document could not be validated (${answer.status} ${answer.error?.code}: ${answer.error?.message}). Send it anyway, unvalidated?`);
    if (!send) announce('Nothing was sent: the document could not be validated.');
    return send;
  }

  async function publish() {
    if (!(await checkedBeforeSending())) return;
    let a: Answer;
    if (source.kind === 'new') a = await v3('POST', '/v3/templates', doc);
    else if (source.kind === 'version') a = await v3('POST', `/v3/templates/${enc(source.templateKey)}/versions`, doc);
    else {
      const p = await v3('PATCH', `/v3/drafts/${enc(source.draftKey)}`, mergePatch(saved.current, doc));
      if (!p.ok) return p;
      saved.current = doc;
      const c = await commitDraft(source.draftKey);
      a = c.ok && c.body.state === 'failed' ? { ok: false, status: 422, body: c.body, error: { ...c.body.error, violations: c.body.violations } } : c.ok ? { ok: true, status: 200, body: { key: c.body.templateKey, version: c.body.version } } : c;
    }
    if (!a.ok && Array.isArray(a.error?.violations)) setRefused(a.error!.violations as Violation[]);
    return a;
  }

  async function saveDraft(): Promise<Answer> {
    if (!(await checkedBeforeSending())) return { ok: false, status: 0, body: undefined, error: { code: 'NOT_SENT', message: 'Nothing was sent.' } };
    if (source.kind === 'draft') {
      const a = await v3('PATCH', `/v3/drafts/${enc(source.draftKey)}`, mergePatch(saved.current, doc));
      if (a.ok) saved.current = doc;
      return a;
    }
    if (source.kind === 'new') return v3('POST', '/v3/drafts', { document: doc });
    // A draft of a new version starts from the template (so its commit publishes a version of it), then takes the edits.
    const made = await v3('POST', '/v3/drafts', { templateKey: source.templateKey, ...(source.version ? { version: Number(source.version) } : {}) });
    if (!made.ok) return made;
    const a = await v3('PATCH', `/v3/drafts/${enc(made.body.key)}`, mergePatch(made.body.document, doc));
    return a.ok ? made : a;
  }

  const onText = (value: string) => {
    setText(value);
    try {
      const parsed = JSON.parse(value);
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('a template document is one JSON object');
      setParseError(undefined);
      setRefused(undefined);
      setDoc(parsed);
    } catch (e) {
      setParseError(e instanceof Error ? e.message : String(e));
    }
  };

  const heading = source.kind === 'new' ? 'New template' : source.kind === 'version' ? `New version of ${start.name ?? 'the template'}` : `Draft${templateName ? ` of ${templateName}` : ''}`;
  const publishLabel = source.kind === 'new' ? 'Publish template' : source.kind === 'version' ? 'Publish new version' : forTemplate ? 'Publish draft as a new version' : 'Publish draft as a template';
  const state = parseError ? 'not JSON' : !current ? 'checking…' : !current.ok ? 'could not be validated' : errors === 0 && warnings === 0 ? 'valid' : `${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}`;
  return html`<div class="crumbs"><a href="/app/templates">Templates</a> › <span>${heading}</span></div>
    <h1>${heading}</h1>
    <${IssuesContext.Provider} value=${placed}>
      <form class="editor" aria-label="Template" onSubmit=${(e: Event) => {
        e.preventDefault();
        void act.run(
          async () => (await publish()) ?? { ok: false, status: 0, body: undefined, error: { code: 'NOT_SENT', message: 'Nothing was sent.' } },
          source.kind === 'version' ? 'Published a new version' : 'Published',
          (a) => navigate(`/app/templates/${enc(a.body.key ?? target)}?version=${a.body.version}`),
        );
      }}>
        <div class="ed-bar" role="group" aria-label="Publish">
          <p class="ed-state" data-testid="validation-state">Validation: <strong>${state}</strong></p>
          <button type="submit">${publishLabel}</button>
          <button type="button" onClick=${() => act.run(saveDraft, 'Draft saved', (a) => source.kind !== 'draft' && a.body?.key && navigate(`/app/drafts/${enc(a.body.key)}`))}>Save draft</button>
          ${source.kind === 'draft' && html`<button type="button" onClick=${() => confirm('Delete this draft?') && act.run(() => v3('DELETE', `/v3/drafts/${enc(source.draftKey)}`), 'Draft deleted', () => navigate('/app/templates'))}>Delete draft</button>`}
        </div>
        ${act.refusal && act.refusal.error?.code !== 'NOT_SENT' && html`<${Refusal} status=${act.refusal.status} error=${act.refusal.error!} what=${publishLabel} />`}
        ${violations.length > 0 && html`<details class="card ed-summary" open=${errors > 0}>
          <summary>${refused ? 'The API refused the document: ' : ''}${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}</summary>
          <ul>${violations.map((v) => html`<li class=${`issue-${v.severity}`}><a href=${`#${idOf(v.path)}`} onClick=${(e: Event) => jump(e, v.path, doc)}>${v.severity === 'error' ? 'Error' : 'Warning'} at <code>${v.path}</code></a>: ${v.message}</li>`)}</ul>
        </details>`}
        <section aria-labelledby="ed-about-h">
          <h2 id="ed-about-h">Template</h2>
          <div class="inline">
            <span class="ed-control"><label for="ed-name">Template name</label>
              <input id="ed-name" value=${doc.name ?? ''} aria-invalid=${placed.get('$.name')?.some((v) => v.severity === 'error') ? 'true' : undefined} aria-describedby=${placed.get('$.name') ? `${idOf('$.name')}-issues` : undefined}
                onInput=${(e: Event) => edit((d) => ({ ...d, name: (e.target as HTMLInputElement).value }))} />
              <${Issues} at="$.name" /></span>
            <span class="ed-control"><label for="ed-description">Description</label>
              <input id="ed-description" value=${doc.description ?? ''} onInput=${(e: Event) => {
                const v = (e.target as HTMLInputElement).value;
                edit((d) => {
                  const { description: _gone, ...rest } = d;
                  return v ? { ...rest, description: v } : rest;
                });
              }} />
              <${Issues} at="$.description" /></span>
          </div>
        </section>
        ${parseError ? html`<p class="muted">The structured editor waits for the document editor to hold JSON again.</p>` : html`<${TasksEditor} doc=${doc} edit=${edit} sets=${sets?.ok ? sets.body.items : []} templates=${templates?.ok ? templates.body.items : []} />
          <${ConditionsEditor} doc=${doc} edit=${edit} />`}
        <section aria-labelledby="ed-doc-h">
          <h2 id="ed-doc-h">Document editor</h2>
          <p class="muted" id="ed-document-hint">The whole template document as JSON (docs/template-document.md): everything the form above does not cover (notifications, parameters, assignees, tags, regexes…) is edited here.</p>
          <textarea id="ed-document" class="ed-json" rows="16" spellcheck=${false} aria-labelledby="ed-doc-h" aria-describedby=${`ed-document-hint${parseError ? ' ed-document-error' : ''}${placed.get('$') ? ` ${idOf('$')}-issues` : ''}`} aria-invalid=${parseError ? 'true' : undefined}
            value=${text} onInput=${(e: Event) => onText((e.target as HTMLTextAreaElement).value)}></textarea>
          <${Issues} at="$" />
          ${parseError && html`<p id="ed-document-error" class="issue-error" data-testid="json-error">Not JSON: ${parseError}</p>`}
        </section>
        <${Preview} doc=${doc} />
      </form>
    <//>`;
}

/** A violation's link moves focus to the control it belongs to. */
function jump(e: Event, path: string, doc: Doc) {
  const anchor = [...placeViolations(doc, [{ path, code: '', message: '', severity: 'error' }]).keys()][0];
  // What the form does not show is edited in the document editor.
  const el = anchor === '$' ? document.getElementById('ed-document') : (document.getElementById(idOf(anchor)) ?? document.querySelector<HTMLElement>(`#${idOf(anchor)}-issues`)?.closest('fieldset')?.querySelector<HTMLElement>('input, select, textarea, button'));
  if (!el) return;
  e.preventDefault();
  el.focus();
  el.scrollIntoView({ block: 'center' });
}

/** How the checklist will read: headings, tasks, stop tasks, fields with their labels (as text). */
function Preview({ doc }: { doc: Doc }) {
  const tasks: any[] = Array.isArray(doc.tasks) ? doc.tasks : [];
  return html`<section aria-labelledby="ed-preview-h" class="card">
    <h2 id="ed-preview-h">Preview</h2>
    <p class="preview-name"><strong>${String(doc.name ?? '')}</strong></p>
    <ol class="tasks" data-testid="preview">${tasks.map((t) =>
      t?.isHeading
        ? html`<li class="heading"><h3>${String(t.name ?? '')}</h3></li>`
        : html`<li class="task"><span>${String(t?.name ?? '')}</span>${t?.isStop ? html` <span class="badge badge-stop">Stop task</span>` : ''}
            ${Array.isArray(t?.fields) && t.fields.length > 0 && html`<ul class="muted field-list">${t.fields.map((f: any) => html`<li>${String(f?.label ?? f?.type ?? '')} (${String(f?.type ?? '')}${f?.isRequired ? ', required' : ''}${f?.dataSet ? `, Data Set ${String(f.dataSet.name ?? '')}` : ''})${Array.isArray(f?.options) && f.options.length ? `: ${f.options.map((o: any) => String(o?.text ?? '')).join(', ')}` : ''}</li>`)}</ul>`}</li>`,
    )}</ol>
  </section>`;
}
