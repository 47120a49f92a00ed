// The console's frame: skip link, banner with the key picker, navigation, the page, and a
// polite live region. Landmarks: header (banner), nav, main.
import { useEffect, useRef, useState } from 'preact/hooks';
import { html } from './html';
import { config } from './config';
import { admin } from './api';
import { useSession } from './hooks';
import { useLocation } from './router';
import { onAnnounce } from './action';
import { useLive, emulatorNow } from './live';
import { when } from './parts';
import { ChecklistList, ChecklistPage } from './pages/checklists';
import { StandaloneTaskPage } from './pages/task';
import { TemplateList, TemplatePage } from './pages/templates';
import { NewTemplatePage, EditTemplatePage, DraftPage } from './pages/authoring';
import { rememberKeyZones } from './pickers';
import { MembersPage, GroupsPage, GroupPage } from './pages/people';
import { MyWorkPage } from './pages/mywork';
import { PanelPage, SignIn } from './pages/panel';
import { ScheduleList, SchedulePage } from './pages/schedules';
import { WebhooksPage } from './pages/webhooks';
import { DataSetList, DataSetPage } from './pages/datasets';
import { FaultsPage } from './pages/faults';
import { ChooseKey } from './pages/choose';
import { KeysPage } from './pages/keys';
import { InstancesPage } from './pages/instances';

interface PickerKey {
  key: string;
  name: string;
  workspace: string;
  region: string;
  actsAs: string;
  state?: string;
}

export const adminUsable = () => config.admin !== 'off';

function KeyPicker() {
  const s = useSession();
  const [keys, setKeys] = useState<PickerKey[] | undefined>(undefined);
  const [typed, setTyped] = useState('');
  useEffect(() => {
    if (!adminUsable() || (config.admin === 'token' && !s.token)) return setKeys(undefined);
    void admin('GET', '/_emulator/console/keys').then((a) => {
      if (!a.ok) return setKeys(undefined);
      const items = a.body.items as PickerKey[];
      setKeys(items);
      rememberKeyZones(items);
      // A first visit chooses who to act as (pages/choose.ts): nothing is picked for it.
    });
  }, [s.token]);
  const known = keys?.some((k) => k.key === s.key);
  return html`<div class="picker">
    ${keys &&
    html`<label for="key-select">Act as</label>
      <select id="key-select" value=${known ? s.key : ''} onChange=${(e: Event) => s.setKey((e.target as HTMLSelectElement).value)}>
        ${!known && html`<option value="">${s.key ? `${s.key} (typed)` : 'choose a key…'}</option>`}
        ${keys.map(
          (k) => html`<option value=${k.key}>${k.key}: ${k.actsAs} (${k.workspace}, ${k.region})${k.state ? ` [${k.state}]` : ''}</option>`,
        )}
      </select>`}
    <form
      class="inline"
      onSubmit=${(e: Event) => {
        e.preventDefault();
        if (typed.trim()) s.setKey(typed);
        setTyped('');
      }}
    >
      <label for="key-input">${keys ? 'or a key' : 'API key'}</label>
      <input id="key-input" type="password" autocomplete="off" placeholder=${keys ? 'any X-API-KEY' : 'X-API-KEY to act with'} value=${typed} onInput=${(e: Event) => setTyped((e.target as HTMLInputElement).value)} />
      <button type="submit">Use</button>
    </form>
    ${!keys && s.key && html`<span class="muted">acting with a key ending …${s.key.slice(-4)}</span>`}
  </div>`;
}

const NAV: [string, string][] = [
  ['/app/my-work', 'My work'],
  ['/app/checklists', 'Checklists'],
  ['/app/templates', 'Templates'],
  ['/app/data-sets', 'Data Sets'],
  ['/app/schedules', 'Schedules'],
  ['/app/webhooks', 'Webhooks'],
  ['/app/members', 'Members'],
  ['/app/groups', 'Groups'],
];

/** The emulator panel's pages (issue 40): the overview, fault rules, API keys, instances. */
function panelRoute(path: string) {
  if (path === '/app/emulator') return html`<${PanelPage} />`;
  if (path === '/app/emulator/faults') return html`<${FaultsPage} path=${path} />`;
  if (path === '/app/emulator/keys') return html`<${KeysPage} path=${path} />`;
  if (path === '/app/emulator/instances') return html`<${InstancesPage} path=${path} />`;
  return html`<h1>Not found</h1><p>No panel page at <code>${path}</code>.</p>`;
}

function route(path: string, query: URLSearchParams) {
  let m: RegExpExecArray | null;
  if (path === '/app' || path === '/app/checklists') return html`<${ChecklistList} query=${query} />`;
  if ((m = /^\/app\/checklists\/([^/]+)(?:\/tasks\/([^/]+))?$/.exec(path))) return html`<${ChecklistPage} checklistKey=${decodeURIComponent(m[1])} taskKey=${m[2] && decodeURIComponent(m[2])} />`;
  if ((m = /^\/app\/tasks\/([^/]+)$/.exec(path))) return html`<${StandaloneTaskPage} taskKey=${decodeURIComponent(m[1])} />`;
  if (path === '/app/templates') return html`<${TemplateList} />`;
  if (path === '/app/templates/new') return html`<${NewTemplatePage} />`;
  if ((m = /^\/app\/templates\/([^/]+)\/edit$/.exec(path))) return html`<${EditTemplatePage} templateKey=${decodeURIComponent(m[1])} version=${query.get('version') ?? undefined} />`;
  if ((m = /^\/app\/drafts\/([^/]+)$/.exec(path))) return html`<${DraftPage} draftKey=${decodeURIComponent(m[1])} />`;
  if ((m = /^\/app\/templates\/([^/]+)$/.exec(path))) return html`<${TemplatePage} templateKey=${decodeURIComponent(m[1])} version=${query.get('version') ?? undefined} />`;
  if (path === '/app/my-work') return html`<${MyWorkPage} />`;
  if (path === '/app/schedules') return html`<${ScheduleList} />`;
  if ((m = /^\/app\/schedules\/([^/]+)$/.exec(path))) return html`<${SchedulePage} scheduleId=${decodeURIComponent(m[1])} />`;
  if (path === '/app/webhooks') return html`<${WebhooksPage} />`;
  if (path === '/app/data-sets') return html`<${DataSetList} />`;
  if ((m = /^\/app\/data-sets\/([^/]+)$/.exec(path))) return html`<${DataSetPage} setKey=${decodeURIComponent(m[1])} query=${query} />`;
  if (path === '/app/members') return html`<${MembersPage} />`;
  if (path === '/app/groups') return html`<${GroupsPage} />`;
  if ((m = /^\/app\/groups\/([^/]+)$/.exec(path))) return html`<${GroupPage} groupId=${decodeURIComponent(m[1])} />`;
  if (path === '/app/emulator' || path.startsWith('/app/emulator/')) return adminUsable() ? panelRoute(path) : html`<h1>Not found</h1><p>The emulator panel is off (--no-admin).</p>`;
  return html`<h1>Not found</h1><p>No console page at <code>${path}</code>.</p>`;
}

export function App() {
  const { path, query } = useLocation();
  const s = useSession();
  const { live } = useLive();
  const [message, setMessage] = useState('');
  const main = useRef<HTMLElement>(null);
  const firstPath = useRef(path);
  // Emptied first, so the same words twice in a row are announced twice (and each once).
  useEffect(() => onAnnounce((m) => (setMessage(''), requestAnimationFrame(() => setMessage(m)))), []);
  useEffect(() => {
    // Moving to another page puts focus on its content (not on the first page load).
    if (firstPath.current === path) return;
    firstPath.current = '';
    // A task's page focuses the task's heading itself once it has loaded (pages/task.ts).
    if (/\/tasks\/[^/]+$/.test(path)) return;
    main.current?.focus();
  }, [path]);
  const needsToken = config.admin === 'token' && !s.token;
  return html`<a class="skip" href="#main" onClick=${(e: Event) => {
      e.preventDefault();
      main.current?.focus();
    }}>Skip to content</a>
    <header class="top">
      <div class="brand"><a href="/app/checklists">wfe console</a> <span class="badge badge-region">${config.region}</span></div>
      <${KeyPicker} />
    </header>
    <nav class="nav" aria-label="Main">
      <ul>
        ${NAV.map(([href, label]) => html`<li><a href=${href} aria-current=${path.startsWith(href) ? 'page' : undefined}>${label}</a></li>`)}
        ${adminUsable() && html`<li><a href="/app/emulator" aria-current=${path.startsWith('/app/emulator') ? 'page' : undefined}>Emulator</a></li>`}
      </ul>
      ${live && html`<p class="clock muted">Emulator time <time datetime=${new Date(emulatorNow(live)).toISOString()} data-testid="emulator-now">${when(new Date(emulatorNow(live)).toISOString())}</time>${live.clock.frozen ? ' (frozen)' : ''}</p>`}
    </nav>
    <main id="main" tabindex="-1" ref=${main}>
      ${needsToken && path.startsWith('/app/emulator') ? html`<${SignIn} />` : !s.key && !path.startsWith('/app/emulator') ? html`<${ChooseKey} path=${path} />` : route(path, query)}
    </main>
    <div class="sr-only" role="status" aria-live="polite">${message}</div>`;
}
