// One task (checklist task or standalone): status actions, fields answered by type, files,
// table rows, assignees, due date, tags and comments. Every write is the v3 route and a
// refusal is shown as the API words it.
import { useEffect, useRef, useState } from 'preact/hooks';
import { html } from '../html';
import { v3, enc, appPath } from '../api';
import { useApi } from '../hooks';
import { useAction, announce } from '../action';
import { OneFieldForm, tagBadges } from '../forms';
import { Loaded, Refusal, Badge, Time, isOverdue, names } from '../parts';
import { useLive, emulatorNow } from '../live';
import { StandaloneActions } from './manage';
import { Fields } from './fields';
import { PeoplePicker, MentionTextarea, DateTimePicker, mentionHtml, localWall, wallToUtc, type Person } from '../pickers';
import { HALTED_FIELDS_MESSAGE, HALTED_COMPLETE_MESSAGE, EXCLUSIVE_MESSAGE } from '../../../domain/refusal-texts';

/** Why the task's fields cannot take answers now, in the API's words (docs/tasks.md order: exclusive, then halted). */
function readOnlyReason(t: any, me: any): string | undefined {
  if (me?.type === 'member' && me.role !== 'Administrator' && t.isAssignedExclusively) {
    const people = (t.assignees ?? []).filter((a: any) => a.type === 'TeamMember');
    const groups = (t.assignees ?? []).some((a: any) => a.type !== 'TeamMember');
    if (people.length > 0 && !groups && !people.some((a: any) => a.id === me.id)) return EXCLUSIVE_MESSAGE;
  }
  if (t.isCurrentlyHalted) return HALTED_FIELDS_MESSAGE;
  return undefined;
}

function Comments({ base, comments }: { base: string; comments: any[] }) {
  const act = useAction();
  const [text, setText] = useState('');
  const [mentions, setMentions] = useState<Person[]>([]);
  const [assign, setAssign] = useState<Person[]>([]);
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
        // Mentions picked with @ travel as the API's mention elements in html; the rest stays text.
        const marked = mentionHtml(text, mentions);
        const body: any = marked ? { html: marked } : { text };
        if (assign.length) body.assignedMentioned = assign.map(({ type, id }) => ({ type, id }));
        void act.run(() => v3('POST', `${base}/comments`, body), 'Comment added', () => (setText(''), setMentions([]), setAssign([])));
      }}
    >
      <label for="comment-text">Add a comment</label>
      <span id="comment-text-hint" class="muted hint">Type @ to mention someone.</span>
      <${MentionTextarea} id="comment-text" value=${text} mentions=${mentions} describedBy="comment-text-hint" onChange=${(t: string, m: Person[]) => (setText(t), setMentions(m))} />
      <${PeoplePicker} id="comment-mention" label="Mention and assign" value=${assign} onChange=${setAssign} />
      <button type="submit" aria-disabled=${act.busy ? 'true' : undefined}>Comment</button>
    </form>
    ${act.refusal && html`<${Refusal} status=${act.refusal.status} error=${act.refusal.error!} what="comment" labels=${{ text: 'Add a comment', html: 'Add a comment', assignedMentioned: 'Mention and assign', attachment: 'Attachment' }} />`}
  </section>`;
}

/** The task's assignees as the picker's chips. */
const assigneesOf = (t: any): Person[] => (t.assignees ?? []).map((a: any) => ({ type: a.type === 'Group' ? 'Group' : 'TeamMember', id: a.id, name: a.name ?? `#${a.id}`, email: a.email }));

function People({ base, t }: { base: string; t: any }) {
  const act = useAction();
  const [who, setWho] = useState<Person[] | undefined>(undefined);
  const [due, setDue] = useState<string | undefined>(undefined);
  const chosen = who ?? assigneesOf(t);
  const wall = due ?? localWall(t.dueDateTime);
  return html`<section aria-labelledby="people-h">
    <h3 id="people-h">Assignees and due date</h3>
    <p>Assigned: ${t.assignees.length ? names(t.assignees) : html`<span class="muted">nobody</span>`}${t.isAssignedExclusively ? ' (exclusively)' : ''}</p>
    <form class="inline" aria-label="Set the assignees" onSubmit=${(e: Event) => {
      e.preventDefault();
      void act.run(() => v3('PUT', `${base}/assignees`, { assignees: chosen.map(({ type, id }) => ({ type, id })) }), 'Assignees set', () => setWho(undefined));
    }}>
      <${PeoplePicker} id="assign-input" label="Assignees (people and groups)" value=${chosen} onChange=${setWho} />
      <button type="submit">Save assignees</button>
      <button type="button" onClick=${() => act.run(() => v3('DELETE', `${base}/assignees`), 'Assignees cleared', () => setWho(undefined))}>Clear assignees</button>
    </form>
    <p>Due: ${t.dueDateTime ? html`<${Time} value=${t.dueDateTime} />` : html`<span class="muted">no due date</span>`}</p>
    <form class="inline" aria-label="Set the due date" onSubmit=${(e: Event) => {
      e.preventDefault();
      void act.run(() => v3('PUT', `${base}/due-date`, { dueDateTime: wallToUtc(wall) ?? wall }), 'Due date set', () => setDue(undefined));
    }}>
      <${DateTimePicker} id="due-input" label="Due date" wall=${wall} onWall=${setDue} />
      <button type="submit">Set due date</button>
      <button type="button" onClick=${() => act.run(() => v3('DELETE', `${base}/due-date`), 'Due date cleared', () => setDue(undefined))}>Clear due date</button>
    </form>
    ${act.refusal && html`<${Refusal} status=${act.refusal.status} error=${act.refusal.error!} labels=${{ assignees: 'Assignees', dueDateTime: 'Due date' }} />`}
  </section>`;
}

function Tags({ base, t }: { base: string; t: any }) {
  const act = useAction();
  return html`<section aria-labelledby="task-tags-h">
    <h3 id="task-tags-h">Tags</h3>
    <p>${tagBadges(act, base, t.tags ?? [])}</p>
    <${OneFieldForm} act=${act} label="Add a tag" inputId="task-tag-input" submit="Add task tag" send=${(tag: string) => v3('POST', `${base}/tags`, { tags: [tag] })} done=${(tag: string) => `Tag ${tag} added`} />
    ${act.refusal && html`<${Refusal} status=${act.refusal.status} error=${act.refusal.error!} what="tags" />`}
  </section>`;
}

function StatusActions({ base, t }: { base: string; t: any }) {
  const act = useAction();
  // A halted task cannot be completed (the API refuses): the button says so instead of looking usable (issue 40).
  const halted = t.isCurrentlyHalted && t.status !== 'Complete';
  const b = (label: string, method: string, suffix: string, done: string, blocked = false) =>
    html`<button type="button" aria-disabled=${blocked || act.busy ? 'true' : undefined} aria-describedby=${blocked ? 'halted-note' : undefined} onClick=${() => (blocked ? announce(HALTED_COMPLETE_MESSAGE) : act.run(() => v3(method, `${base}/${suffix}`), done))}>${label}</button>`;
  return html`<div class="actions" role="group" aria-label="Task status" data-focus-group>
    ${halted && html`<p class="read-only" id="halted-note" data-testid="halted-note">${HALTED_COMPLETE_MESSAGE}</p>`}
    ${t.status === 'Complete' ? b('Uncomplete', 'DELETE', 'complete', 'Task uncompleted') : b('Complete task', 'POST', 'complete', 'Task completed', halted)}
    ${t.status === 'NotApplicable' ? b('Clear not applicable', 'DELETE', 'not-applicable', 'Not applicable cleared') : t.status !== 'Complete' && b('Not applicable', 'POST', 'not-applicable', 'Marked not applicable')}
    ${act.refusal && html`<${Refusal} status=${act.refusal.status} error=${act.refusal.error!} what="status" />`}
  </div>`;
}

export function TaskPanel({ base, defs }: { base: string; defs?: Map<string, any> }) {
  const { answer } = useApi(() => v3('GET', base), [base]);
  const me = useApi(() => v3('GET', '/v3/auth/test'), [], 'none').answer;
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
      <section aria-labelledby="fields-h"><h3 id="fields-h">Fields</h3><${Fields} base=${base} fields=${t.fields ?? []} defs=${defs} readOnly=${readOnlyReason(t, me?.ok ? me.body.apiKey?.actsAs : undefined)} key=${base} /></section>
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

