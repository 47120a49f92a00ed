// Re-plan a schedule (issue 40; docs/schedules.md): its start (wall clock in its zone), its
// zone and its recurrence, through PATCH /v3/schedules/{id}, which re-plans the runs still to
// come. Only what changed is sent; "once" sends `recurrence: null`. The API judges the plan.
import { useState } from 'preact/hooks';
import { html } from '../html';
import { v3 } from '../api';
import { useAction } from '../action';
import { inputValue } from '../forms';
import { Refusal } from '../parts';

const FREQUENCIES = ['', 'Daily', 'Weekly', 'Monthly', 'Yearly'];
const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

/** A wall clock as datetime-local shows it (seconds kept). */
const local = (v: string | undefined) => (v ?? '').replace(/Z$|[+-]\d\d:\d\d$/, '').slice(0, 19);
const sent = (v: string) => (v.length === 16 ? `${v}:00` : v);

function recurrenceOf(f: { frequency: string; interval: string; days: string[]; end: string; endDate: string; count: string }): Record<string, unknown> | null {
  if (!f.frequency) return null;
  const r: Record<string, unknown> = { frequency: f.frequency };
  if (f.interval.trim() && f.interval.trim() !== '1') r.interval = Number.isNaN(Number(f.interval)) ? f.interval : Number(f.interval);
  if (f.frequency === 'Weekly' && f.days.length) r.daysOfWeek = WEEKDAYS.filter((d) => f.days.includes(d));
  if (f.end === 'date') r.endDate = f.endDate;
  if (f.end === 'count') r.count = Number.isNaN(Number(f.count)) ? f.count : Number(f.count);
  return r;
}

export function ReplanSchedule({ x, path }: { x: any; path: string }) {
  const act = useAction();
  const rec = x.recurrence;
  const [start, setStart] = useState(local(x.startDateTime));
  const [zone, setZone] = useState(x.timeZone ?? 'UTC');
  const [frequency, setFrequency] = useState<string>(rec?.frequency ?? '');
  const [interval, setInterval] = useState(String(rec?.interval ?? 1));
  const [days, setDays] = useState<string[]>(rec?.daysOfWeek ?? []);
  const [end, setEnd] = useState(rec?.endDate ? 'date' : rec?.count ? 'count' : 'never');
  const [endDate, setEndDate] = useState(rec?.endDate ?? '');
  const [count, setCount] = useState(String(rec?.count ?? ''));
  const submit = (e: Event) => {
    e.preventDefault();
    const body: Record<string, unknown> = {};
    if (sent(start) !== local(x.startDateTime)) body.startDateTime = sent(start);
    if (zone !== x.timeZone) body.timeZone = zone;
    const next = recurrenceOf({ frequency, interval, days, end, endDate, count });
    if (JSON.stringify(next) !== JSON.stringify(rec ? recurrenceOf({ frequency: rec.frequency, interval: String(rec.interval ?? 1), days: rec.daysOfWeek ?? [], end: rec.endDate ? 'date' : rec.count ? 'count' : 'never', endDate: rec.endDate ?? '', count: String(rec.count ?? '') }) : null)) body.recurrence = next;
    void act.run(() => v3('PATCH', path, body), Object.keys(body).length ? 'Schedule re-planned' : 'Nothing changed');
  };
  return html`<section aria-labelledby="replan-h" class="card">
    <h2 id="replan-h">Re-plan</h2>
    <p class="muted">A new start, zone or recurrence re-plans the runs still to come (their ids change); runs that happened stay.</p>
    <form class="inline" onSubmit=${submit} novalidate>
      <span class="pair"><label for="replan-start">Starts (wall clock in its zone)</label>
      <input id="replan-start" type="datetime-local" step="1" value=${start} onInput=${inputValue(setStart)} /></span>
      <span class="pair"><label for="replan-zone">Time zone</label>
      <input id="replan-zone" value=${zone} list="replan-zones" onInput=${inputValue(setZone)} />
      <datalist id="replan-zones">${['UTC', 'Europe/London', 'Europe/Berlin', 'America/New_York', 'America/Los_Angeles', 'Asia/Tokyo', 'Australia/Sydney'].map((z) => html`<option value=${z}></option>`)}</datalist></span>
      <span class="pair"><label for="replan-frequency">Repeats</label>
      <select id="replan-frequency" value=${frequency} onChange=${inputValue(setFrequency)}>${FREQUENCIES.map((f) => html`<option value=${f}>${f || 'once'}</option>`)}</select></span>
      ${frequency &&
      html`<span class="pair"><label for="replan-interval">Every</label>
        <input id="replan-interval" type="number" min="1" max="1000" size="4" value=${interval} onInput=${inputValue(setInterval)} /></span>
        ${frequency === 'Weekly' &&
        html`<fieldset class="choices"><legend>On</legend>${WEEKDAYS.map(
          (d) => html`<label class="check"><input type="checkbox" checked=${days.includes(d)} onChange=${(e: Event) => setDays((e.target as HTMLInputElement).checked ? [...days, d] : days.filter((x) => x !== d))} /> ${d}</label>`,
        )}</fieldset>`}
        <span class="pair"><label for="replan-end">Ends</label>
        <select id="replan-end" value=${end} onChange=${inputValue(setEnd)}><option value="never">never</option><option value="date">on a date</option><option value="count">after a number of runs</option></select></span>
        ${end === 'date' && html`<span class="pair"><label for="replan-end-date">Last date</label><input id="replan-end-date" type="date" value=${endDate} onInput=${inputValue(setEndDate)} /></span>`}
        ${end === 'count' && html`<span class="pair"><label for="replan-count">Runs in all</label><input id="replan-count" type="number" min="1" max="1000" size="5" value=${count} onInput=${inputValue(setCount)} /></span>`}`}
      <button type="submit">Re-plan schedule</button>
    </form>
    ${act.refusal && html`<${Refusal} status=${act.refusal.status} error=${act.refusal.error!} what="re-plan" />`}
  </section>`;
}
