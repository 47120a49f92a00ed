// Schedules (docs/schedules.md): the list with a create form, and one schedule with its
// runs: skip a run, create its checklist now, rename, delete. Wall-clock times are in the
// schedule's zone, as the API answers them.
import { useState } from 'preact/hooks';
import { html } from '../html';
import { useActingZone, zoneWallToUtc } from '../pickers';
import { v3, enc, appPath } from '../api';
import { useApi } from '../hooks';
import { useAction } from '../action';
import { OneFieldForm } from '../forms';
import { navigate } from '../router';
import { Loaded, Refusal, Badge, Wide } from '../parts';
import { ReplanSchedule } from './schedule-plan';

const FREQUENCIES = ['', 'Daily', 'Weekly', 'Monthly', 'Yearly'];

function CreateSchedule() {
  const act = useAction();
  const templates = useApi(() => v3('GET', '/v3/templates?pageSize=100'), [], 'none');
  const [name, setName] = useState('');
  const [template, setTemplate] = useState('');
  // The acting member's zone until one is typed (a schedule's times are wall clock in its own zone).
  const [typedZone, setZone] = useState<string | undefined>(undefined);
  const acting = useActingZone();
  const zone = typedZone ?? acting;
  const [start, setStart] = useState('');
  const [frequency, setFrequency] = useState('');
  return html`<section aria-labelledby="new-schedule-h" class="card">
    <h2 id="new-schedule-h">New schedule</h2>
    <form class="inline" onSubmit=${(e: Event) => {
      e.preventDefault();
      const body: Record<string, unknown> = { name, templateKey: template, timeZone: zone, startDateTime: start.length === 16 ? `${start}:00` : start };
      if (frequency) body.recurrence = { frequency };
      void act.run(() => v3('POST', '/v3/schedules', body), `Schedule ${name} created`, (a) => navigate(`/app/schedules/${enc(String(a.body.id))}`));
    }}>
      <label for="schedule-name">Name</label>
      <input id="schedule-name" value=${name} onInput=${(e: Event) => setName((e.target as HTMLInputElement).value)} />
      <label for="schedule-template">Template</label>
      <select id="schedule-template" value=${template} onChange=${(e: Event) => setTemplate((e.target as HTMLSelectElement).value)}>
        <option value="">choose…</option>
        ${templates.answer?.ok && templates.answer.body.items.map((t: any) => html`<option value=${t.key}>${t.name}</option>`)}
      </select>
      <label for="schedule-zone">Time zone</label>
      <input id="schedule-zone" value=${zone} onInput=${(e: Event) => setZone((e.target as HTMLInputElement).value)} />
      <label for="schedule-start">Starts (wall clock)</label>
      <input id="schedule-start" type="datetime-local" step="1" aria-describedby="schedule-start-utc" value=${start} onInput=${(e: Event) => setStart((e.target as HTMLInputElement).value)} />
      <span id="schedule-start-utc" class="muted hint" data-testid="schedule-start-utc">wall clock in the schedule's zone${zoneWallToUtc(start, zone) ? `: ${zoneWallToUtc(start, zone)!.replace('T', ' ').replace('Z', ' UTC')}` : ''}</span>
      <label for="schedule-frequency">Repeats</label>
      <select id="schedule-frequency" value=${frequency} onChange=${(e: Event) => setFrequency((e.target as HTMLSelectElement).value)}>${FREQUENCIES.map((f) => html`<option value=${f}>${f || 'once'}</option>`)}</select>
      <button type="submit" aria-disabled=${act.busy ? 'true' : undefined}>Create schedule</button>
    </form>
    ${act.refusal && html`<${Refusal} status=${act.refusal.status} error=${act.refusal.error!} what="new schedule" labels=${{ name: 'Name', templateKey: 'Template', timeZone: 'Time zone', startDateTime: 'Starts', recurrence: 'Repeats' }} />`}
  </section>`;
}

export function ScheduleList() {
  const { answer } = useApi(() => v3('GET', '/v3/schedules?pageSize=100'), []);
  return html`<h1>Schedules</h1>
    <${CreateSchedule} />
    <${Loaded} answer=${answer} what="GET /v3/schedules">
      ${(b: any) => (b.items.length === 0 ? html`<p class="muted">No schedules.</p>` : html`<${Wide} label="Schedules"><table>
        <thead><tr><th scope="col">Name</th><th scope="col">Template</th><th scope="col">Status</th><th scope="col">Next run</th><th scope="col">Repeats</th></tr></thead>
        <tbody>${b.items.map(
          (x: any) => html`<tr><td><a href=${`/app/schedules/${x.id}`}>${x.name}</a></td><td><a href=${appPath(x.template?.url)}>${x.template?.name}</a></td><td><${Badge} kind=${x.status === 'Active' ? 'InProgress' : 'muted'}>${x.status}<//></td>
            <td>${x.nextRun ? `${x.nextRun.scheduledDateTime} ${x.timeZone}` : ''}</td><td>${x.recurrence ? `${x.recurrence.frequency}${x.recurrence.interval > 1 ? ` every ${x.recurrence.interval}` : ''}` : 'once'}</td></tr>`,
        )}</tbody></table><//>`)}
    <//>`;
}

function Run({ scheduleId, r }: { scheduleId: string; r: any }) {
  const act = useAction();
  const base = `/v3/schedules/${enc(scheduleId)}/runs/${r.id}`;
  return html`<tr data-run=${r.id}>
    <td>${r.scheduledDateTime}</td>
    <td><${Badge} kind=${r.status === 'Started' ? 'Complete' : r.status === 'Failed' ? 'failed' : 'muted'} testid="run-status">${r.status}<//>${r.reason ? html` <span class="muted">${r.reason}</span>` : ''}</td>
    <td>${r.checklist ? html`<a href=${appPath(r.checklist.url)}>${r.checklist.name}</a> <span class="muted">${r.checklist.status}</span>` : ''}</td>
    <td>${r.status === 'Upcoming' &&
    html`<button type="button" class="small" onClick=${() => act.run(() => v3('POST', `${base}/start`), 'Checklist created now')}>Create its checklist now</button>
      <button type="button" class="small" onClick=${() => act.run(() => v3('POST', `${base}/skip`), 'Run skipped')}>Skip<span class="sr-only"> run ${r.id}</span></button>`}
      ${act.refusal && html`<${Refusal} status=${act.refusal.status} error=${act.refusal.error!} what="run" />`}</td>
  </tr>`;
}

export function SchedulePage({ scheduleId }: { scheduleId: string }) {
  const path = `/v3/schedules/${enc(scheduleId)}`;
  const schedule = useApi(() => v3('GET', path), [path]);
  const runs = useApi(() => v3('GET', `${path}/runs?pageSize=100`), [path]);
  const act = useAction();
  return html`<${Loaded} answer=${schedule.answer} what=${`GET ${path}`}>
    ${(x: any) => html`<div class="crumbs"><a href="/app/schedules">Schedules</a> › <span>${x.name}</span></div>
      <h1>${x.name}</h1>
      <p class="summary"><${Badge} kind=${x.status === 'Active' ? 'InProgress' : 'muted'}>${x.status}<//> · template <a href=${appPath(x.template?.url)}>${x.template?.name}</a> · starts ${x.startDateTime} ${x.timeZone} · ${x.recurrence ? x.recurrence.frequency : 'once'}</p>
      <${OneFieldForm} act=${act} label="Rename to" inputId="rename-schedule" submit="Rename" send=${(name: string) => v3('PATCH', path, { name })} done="Schedule renamed">
        <button type="button" onClick=${() => confirm(`Delete the schedule ${x.name}?`) && act.run(() => v3('DELETE', path), 'Schedule deleted', () => navigate('/app/schedules'))}>Delete schedule</button>
      <//>
      ${act.refusal && html`<${Refusal} status=${act.refusal.status} error=${act.refusal.error!} what="schedule" />`}
      <${ReplanSchedule} x=${x} path=${path} key=${`${x.startDateTime} ${x.timeZone} ${JSON.stringify(x.recurrence ?? null)}`} />
      <h2>Runs</h2>
      <${Loaded} answer=${runs.answer} what="runs">${(b: any) => html`<${Wide} label="Runs"><table>
        <thead><tr><th scope="col">Scheduled (${x.timeZone})</th><th scope="col">Status</th><th scope="col">Checklist</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
        <tbody>${b.items.map((r: any) => html`<${Run} scheduleId=${scheduleId} r=${r} key=${r.id} />`)}</tbody>
      </table><//>`}<//>`}
  <//>`;
}
