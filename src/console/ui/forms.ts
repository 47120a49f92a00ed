// Form pieces more than one page shows: a one-field form (rename, attach, add a tag) and a
// thing's tags with their remove buttons. Each writes through the page's own action, so its
// refusal shows in the page's refusal box.
import { useState } from 'preact/hooks';
import type { ComponentChildren } from 'preact';
import { html } from './html';
import { v3, enc, type Answer } from './api';
import type { useAction } from './action';

type Action = ReturnType<typeof useAction>;

/** `onInput` of a text control: keeps its value in `set`. */
export const inputValue = (set: (v: string) => void) => (e: Event) => set((e.target as HTMLInputElement).value);

/**
 * One text input and its submit button: `send(value)` makes the call, and the input empties
 * when it succeeds. `children` are further buttons of the same form.
 */
export function OneFieldForm(p: { act: Action; label: string; inputId: string; submit: string; send: (value: string) => Promise<Answer>; done: string | ((value: string) => string); children?: ComponentChildren }) {
  const [value, setValue] = useState('');
  return html`<form class="inline" onSubmit=${(e: Event) => {
    e.preventDefault();
    void p.act.run(() => p.send(value), typeof p.done === 'string' ? p.done : p.done(value), () => setValue(''));
  }}>
    <label for=${p.inputId}>${p.label}</label>
    <input id=${p.inputId} value=${value} onInput=${inputValue(setValue)} />
    <button type="submit">${p.submit}</button>
    ${p.children}
  </form>`;
}

/** The tags of the thing at `base`, each with a button that takes it off (DELETE {base}/tags?name=). */
export function tagBadges(act: Action, base: string, tags: string[]) {
  return tags.length === 0
    ? html`<span class="muted">none</span>`
    : tags.map((t) => html`<span class="badge badge-muted">${t} <button type="button" class="small" onClick=${() => act.run(() => v3('DELETE', `${base}/tags?name=${enc(t)}`), `Tag ${t} removed`)}>Remove<span class="sr-only"> tag ${t}</span></button></span> `);
}
