// "Run checklist" on the checklist list (issue 40): a template and a name, POST /v3/checklists
// (the same operation as the template page's form), then the new checklist's page. Parameters
// and a due date are on the template's page, linked beside.
import { useState } from 'preact/hooks';
import { html } from '../html';
import { v3, enc } from '../api';
import { useApi } from '../hooks';
import { useAction } from '../action';
import { inputValue } from '../forms';
import { navigate } from '../router';
import { Refusal } from '../parts';

export function RunChecklist() {
  const act = useAction();
  const templates = useApi(() => v3('GET', '/v3/templates?pageSize=100'), [], 'none');
  const [template, setTemplate] = useState('');
  const [name, setName] = useState('');
  const items: any[] = templates.answer?.ok ? templates.answer.body.items : [];
  const chosen = template || items[0]?.key || '';
  return html`<details class="card run-quick">
    <summary>Run checklist</summary>
    <form class="inline" aria-label="Run a checklist" onSubmit=${(e: Event) => {
      e.preventDefault();
      void act.run(() => v3('POST', '/v3/checklists', { templateKey: chosen, name }), `Checklist ${name} started`, (a) => navigate(`/app/checklists/${enc(a.body.key)}`));
    }}>
      <span class="pair"><label for="quick-template">Start from</label>
      <select id="quick-template" value=${chosen} onChange=${inputValue(setTemplate)}>${items.map((t) => html`<option value=${t.key}>${t.name}</option>`)}</select></span>
      <span class="pair"><label for="quick-name">New checklist name</label>
      <input id="quick-name" value=${name} onInput=${inputValue(setName)} /></span>
      <button type="submit">Run checklist</button>
      ${chosen && html`<a href=${`/app/templates/${enc(chosen)}`}>With parameters or a due date: the template's page</a>`}
    </form>
    ${act.refusal && html`<${Refusal} status=${act.refusal.status} error=${act.refusal.error!} what="run checklist" />`}
  </details>`;
}
