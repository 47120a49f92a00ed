// Pickers: people and groups (a combobox: search by name or email, groups marked), the same
// list offered by `@` in a comment, and a date-and-time picker that shows the acting
// member's zone and sends UTC. The people come from the API (`GET /v3/members`, `GET
// /v3/groups`), each picked one sent as `{type, id}` so two people sharing a name stay apart.
import { useEffect, useRef, useState } from 'preact/hooks';
import { html } from './html';
import { v3 } from './api';
import { useApi, useSession } from './hooks';
import { session } from './session';

export interface Person {
  type: 'TeamMember' | 'Group';
  id: number;
  name: string;
  email?: string;
}

/** Active members and the groups of the acting key's workspace (read once per key). */
export function usePeople(): Person[] | undefined {
  const { answer } = useApi(async () => {
    const [m, g] = await Promise.all([v3('GET', '/v3/members?pageSize=100'), v3('GET', '/v3/groups?pageSize=100')]);
    if (!m.ok) return m;
    const members: Person[] = (m.body.items as any[]).filter((x) => x.isActive !== false && !x.isRemoved).map((x) => ({ type: 'TeamMember', id: x.id, name: x.name || x.email || `#${x.id}`, email: x.email }));
    const groups: Person[] = g.ok ? (g.body.items as any[]).map((x) => ({ type: 'Group', id: x.id, name: x.name })) : [];
    return { ok: true, status: 200, body: [...members, ...groups] };
  }, [], 'none');
  return answer?.ok ? (answer.body as Person[]) : undefined;
}

const samePerson = (a: Person, b: Person) => a.type === b.type && a.id === b.id;

/** People whose name or email holds `q` (case-insensitive), members first, at most 8. */
export function matching(people: Person[], q: string, skip: Person[] = []): Person[] {
  const s = q.trim().toLowerCase();
  return people.filter((p) => !skip.some((x) => samePerson(x, p)) && (!s || p.name.toLowerCase().includes(s) || (p.email ?? '').toLowerCase().includes(s))).slice(0, 8);
}

/** How an option reads: the name, the email (two people may share a name), groups marked. */
function Option({ p, id, active, onPick }: { p: Person; id: string; active: boolean; onPick: () => void }) {
  return html`<li role="option" id=${id} aria-selected=${active ? 'true' : 'false'} class=${active ? 'option active' : 'option'} data-person=${`${p.type}:${p.id}`}
    onMouseDown=${(e: Event) => e.preventDefault()} onClick=${onPick}>
    ${p.name}${p.type === 'Group' ? html` <span class="badge badge-muted">group</span>` : p.email ? html` <span class="muted">${p.email}</span>` : ''}
  </li>`;
}

/** Arrow keys move through the open list, Enter picks, Escape closes; answers whether the key was used. */
function listKeys(e: KeyboardEvent, count: number, active: number, setActive: (n: number) => void, pick: () => void, close: () => void): boolean {
  if (count === 0) return false;
  if (e.key === 'ArrowDown') setActive((active + 1) % count);
  else if (e.key === 'ArrowUp') setActive((active - 1 + count) % count);
  else if (e.key === 'Enter') pick();
  else if (e.key === 'Escape') close();
  else return false;
  e.preventDefault();
  return true;
}

/**
 * A people-and-groups picker: the chosen ones as removable chips, and a search box (an ARIA
 * combobox) listing who matches. `members` leaves groups out (a field that takes only members).
 */
export function PeoplePicker(p: { id: string; label: string; value: Person[]; onChange: (v: Person[]) => void; membersOnly?: boolean; describedBy?: string }) {
  const all = usePeople();
  const [q, setQ] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const people = (all ?? []).filter((x) => !p.membersOnly || x.type === 'TeamMember');
  const list = open ? matching(people, q, p.value) : [];
  const listId = `${p.id}-list`;
  const pick = (x: Person | undefined) => {
    if (!x) return;
    p.onChange([...p.value, x]);
    // Closed after a pick (it would cover what follows); typing, a click or ArrowDown opens it again.
    setQ('');
    setActive(0);
    setOpen(false);
  };
  return html`<div class="combo" data-focus-group>
    <label for=${p.id}>${p.label}</label>
    ${p.value.length > 0 && html`<ul class="chips" aria-label=${`${p.label}: chosen`}>${p.value.map(
      (x) => html`<li class="chip">${x.name}${x.type === 'Group' ? ' (group)' : ''} <button type="button" class="small" onClick=${() => p.onChange(p.value.filter((y) => !samePerson(x, y)))}>Remove<span class="sr-only"> ${x.name}</span></button></li>`,
    )}</ul>`}
    <div class="combo-box">
      <input id=${p.id} role="combobox" autocomplete="off" aria-autocomplete="list" aria-expanded=${list.length > 0 ? 'true' : 'false'} aria-controls=${listId}
        aria-activedescendant=${list.length > 0 ? `${listId}-${active}` : undefined} aria-describedby=${p.describedBy}
        placeholder=${all ? 'search by name or email' : 'loading people…'} value=${q}
        onInput=${(e: Event) => (setQ((e.target as HTMLInputElement).value), setOpen(true), setActive(0))}
        onClick=${() => setOpen(true)} onBlur=${() => setOpen(false)}
        onKeyDown=${(e: KeyboardEvent) => {
          if (!open && e.key === 'ArrowDown') return (setOpen(true), e.preventDefault());
          listKeys(e, list.length, active, setActive, () => pick(list[active]), () => setOpen(false));
        }} />
      <ul id=${listId} role="listbox" aria-label=${`${p.label}: matches`} class="listbox" hidden=${list.length === 0}>
        ${list.map((x, i) => html`<${Option} p=${x} id=${`${listId}-${i}`} active=${i === active} onPick=${() => pick(x)} />`)}
      </ul>
    </div>
  </div>`;
}

/** The `@word` being typed just before the caret, if any. */
function mentionAt(text: string, caret: number): { start: number; q: string } | undefined {
  const m = /(^|\s)@([^\s@]{0,40})$/.exec(text.slice(0, caret));
  return m ? { start: caret - m[2].length - 1, q: m[2] } : undefined;
}

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * A comment's text as the API's `html` with each picked mention still written in it as an
 * element carrying data-mention-type and data-mention-id (docs/tasks.md); everything else
 * escaped, so what the user typed stays text. Undefined when no mention is left in the text.
 */
export function mentionHtml(text: string, mentions: Person[]): string | undefined {
  const left = mentions.filter((m) => text.includes(`@${m.name}`));
  if (left.length === 0) return undefined;
  // Longest names first, so "@Ann Lee-Smith" is not taken for "@Ann Lee".
  const names = [...left].sort((a, b) => b.name.length - a.name.length);
  let out = '';
  let i = 0;
  while (i < text.length) {
    const m = text[i] === '@' ? names.find((n) => text.startsWith(`@${n.name}`, i)) : undefined;
    if (m) {
      out += `<span data-mention-type="${m.type}" data-mention-id="${m.id}">@${escapeHtml(m.name)}</span>`;
      i += m.name.length + 1;
    } else {
      out += escapeHtml(text[i]);
      i++;
    }
  }
  return `<p>${out.replace(/\n/g, '<br>')}</p>`;
}

/** A text area where typing `@` offers the people picker's list; a pick writes `@Name` and remembers who. */
export function MentionTextarea(p: { id: string; value: string; onChange: (text: string, mentions: Person[]) => void; mentions: Person[]; describedBy?: string }) {
  const all = usePeople();
  const ref = useRef<HTMLTextAreaElement>(null);
  const [at, setAt] = useState<{ start: number; q: string } | undefined>(undefined);
  const [active, setActive] = useState(0);
  const list = at && all ? matching(all, at.q) : [];
  const listId = `${p.id}-mentions`;
  const look = () => {
    const el = ref.current;
    if (!el) return;
    setAt(mentionAt(el.value, el.selectionStart ?? el.value.length));
    setActive(0);
  };
  const pick = (x: Person | undefined) => {
    const el = ref.current;
    if (!x || !at || !el) return;
    const caret = el.selectionStart ?? el.value.length;
    const text = `${p.value.slice(0, at.start)}@${x.name} ${p.value.slice(caret)}`;
    // Written into the element now, caret after the name, so keys typed next land there (the render that follows finds the same value).
    const pos = at.start + x.name.length + 2;
    el.value = text;
    el.setSelectionRange(pos, pos);
    p.onChange(text, p.mentions.some((m) => samePerson(m, x)) ? p.mentions : [...p.mentions, x]);
    setAt(undefined);
  };
  return html`<div class="combo-box">
    <textarea id=${p.id} ref=${ref} rows="3" role="combobox" aria-autocomplete="list" aria-expanded=${list.length > 0 ? 'true' : 'false'} aria-controls=${listId}
      aria-activedescendant=${list.length > 0 ? `${listId}-${active}` : undefined} aria-describedby=${p.describedBy} value=${p.value}
      onInput=${(e: Event) => (p.onChange((e.target as HTMLTextAreaElement).value, p.mentions), look())}
      onKeyDown=${(e: KeyboardEvent) => list.length > 0 && listKeys(e, list.length, active, setActive, () => pick(list[active]), () => setAt(undefined))}
      onClick=${look} onBlur=${() => setAt(undefined)}></textarea>
    <ul id=${listId} role="listbox" aria-label="Mention someone" class="listbox" hidden=${list.length === 0}>
      ${list.map((x, i) => html`<${Option} p=${x} id=${`${listId}-${i}`} active=${i === active} onPick=${() => pick(x)} />`)}
    </ul>
  </div>`;
}

/** Each listed key's zone (the picker's key list, /_emulator/console/keys: the member's profile zone, else UTC). */
const keyZones = new Map<string, string>();
const zoneListeners = new Set<() => void>();

/** Called by the key picker with the keys it listed. */
export function rememberKeyZones(items: { key: string; timeZone?: string }[]): void {
  for (const k of items) if (k.timeZone) keyZones.set(k.key, k.timeZone);
  zoneListeners.forEach((l) => l());
}

const browserZone = (): string => {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
};

/**
 * The acting member's zone: the one the API uses for the key (its member's profile zone, else
 * UTC), as the key list says; for a key the list does not know, the browser's zone.
 */
export const actingZone = (): string => {
  const z = keyZones.get(session.key);
  if (!z) return browserZone();
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: z });
    return z;
  } catch {
    return browserZone();
  }
};

/** actingZone(), re-rendering when the key or the key list changes. */
export function useActingZone(): string {
  useSession();
  const [, tick] = useState(0);
  useEffect(() => {
    const l = () => tick((n) => n + 1);
    zoneListeners.add(l);
    return () => void zoneListeners.delete(l);
  }, []);
  return actingZone();
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The wall clock of an instant in a zone, as a datetime-local input holds it (YYYY-MM-DDTHH:MM). */
export function wallIn(iso: string | undefined, zone: string): string {
  if (!iso) return '';
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return '';
  const p = partsIn(t, zone);
  return p ? `${p.year}-${pad(p.month)}-${pad(p.day)}T${pad(p.hour)}:${pad(p.minute)}` : '';
}

function partsIn(t: number, zone: string): { year: number; month: number; day: number; hour: number; minute: number; second: number } | undefined {
  try {
    const parts = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' }).formatToParts(new Date(t));
    const g = (k: string) => Number(parts.find((x) => x.type === k)?.value);
    return { year: g('year'), month: g('month'), day: g('day'), hour: g('hour'), minute: g('minute'), second: g('second') };
  } catch {
    return undefined;
  }
}

/** The zone's offset from UTC at an instant, in ms. */
function offsetMs(t: number, zone: string): number {
  const p = partsIn(t, zone);
  return p ? Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - t : 0;
}

/** A wall-clock time in an IANA zone as the UTC instant it is (undefined for an unknown zone or a malformed time). */
export function zoneWallToUtc(wall: string, zone: string): string | undefined {
  const m = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d)(?::(\d\d))?$/.exec(wall);
  if (!m || !partsIn(0, zone)) return undefined;
  const asUtc = Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +(m[6] ?? 0));
  // Twice: the offset at the first guess may differ from the offset at the answer (a DST change between).
  const t = asUtc - offsetMs(asUtc - offsetMs(asUtc, zone), zone);
  return new Date(t).toISOString().replace(/\.000Z$/, 'Z');
}

/** The acting member's wall clock (a datetime-local value) as the UTC instant the API takes. */
export const wallToUtc = (wall: string): string | undefined => (wall ? zoneWallToUtc(wall, actingZone()) : undefined);
/** An instant as the acting member's wall clock. */
export const localWall = (iso: string | undefined): string => wallIn(iso, actingZone());

/** The zone's offset from UTC at an instant, as +HH:MM. */
function offsetAt(t: number, zone: string): string {
  const m = Math.round(offsetMs(t, zone) / 60_000);
  return `${m < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(m) / 60))}:${pad(Math.abs(m) % 60)}`;
}

/**
 * A date-and-time picker in the acting member's zone (named beside it) that hands the caller
 * UTC; it says the UTC instant it will send. `wall` is the datetime-local value (kept by the caller).
 */
export function DateTimePicker(p: { id: string; label: string; wall: string; onWall: (wall: string) => void; describedBy?: string }) {
  const zone = useActingZone();
  const utc = p.wall ? zoneWallToUtc(p.wall, zone) : undefined;
  const noteId = `${p.id}-zone`;
  return html`<span class="datetime">
    <label for=${p.id}>${p.label}</label>
    <input id=${p.id} type="datetime-local" value=${p.wall} aria-describedby=${[noteId, p.describedBy].filter(Boolean).join(' ')} onInput=${(e: Event) => p.onWall((e.target as HTMLInputElement).value)} />
    <span id=${noteId} class="muted hint" data-testid=${`${p.id}-utc`}>your zone ${zone} (UTC${offsetAt(utc ? Date.parse(utc) : Date.now(), zone)})${utc ? `; sends ${utc.replace('T', ' ').replace('Z', ' UTC')}` : ''}</span>
  </span>`;
}

