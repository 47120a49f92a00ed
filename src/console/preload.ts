// The first page's data in its shell (issue 21 "first content"): a browser whose console
// session follows a key (api.ts feedTicket) gets, with the HTML of a checklist or of the
// checklist list, the answers its first reads would fetch, read in-process through the same
// route family (same operations, same rules, uncharged) and written as inert JSON. The page
// then renders from them right after its script runs, one round trip instead of three.
// Only GET answers, only for the key the client still acts with (ui/key-hash.ts).
import type { Emulator } from '../emulator';
import type { CallInfo } from '../pipeline';
import { keyHash } from './ui/key-hash';

type Api = (req: Request, info: CallInfo, emu: Emulator) => Promise<Response | undefined>;

export interface Preload {
  k: string;
  answers: Record<string, { status: number; body: unknown }>;
}

const enc = encodeURIComponent;
const segment = (s: string) => {
  try {
    return enc(decodeURIComponent(s));
  } catch {
    return undefined;
  }
};

/** The v3 reads a page path starts with (the client asks the same strings; pages/checklists.ts). */
function firstReads(path: string, query: URLSearchParams): string[] | undefined {
  const m = /^\/app\/checklists\/([^/]+)(?:\/tasks\/([^/]+))?$/.exec(path);
  if (m) {
    const c = segment(m[1]);
    const t = m[2] === undefined ? undefined : segment(m[2]);
    if (!c || t === undefined && m[2] !== undefined) return undefined;
    const base = `/v3/checklists/${c}`;
    return [base, `${base}/tasks`, `${base}/attached-tasks`, ...(t ? [`${base}/tasks/${t}`, '/v3/auth/test'] : [])];
  }
  if (path === '/app' || path === '/app/checklists') {
    const qs = new URLSearchParams({ pageSize: '100', sort: 'name' });
    for (const [name, as] of [['status', 'status'], ['search', 'search'], ['includeArchived', 'includeArchived'], ['templateKey', 'templateKey']] as const) {
      const v = query.get(name);
      if (v && (name !== 'includeArchived' || v === 'true')) qs.set(as, v);
    }
    return ['/v3/templates?pageSize=100', `/v3/checklists?${qs}`];
  }
  return undefined;
}

export async function preload(api: Api, emu: Emulator, origin: string, info: CallInfo, key: string | undefined, path: string, query: URLSearchParams): Promise<Preload | undefined> {
  if (!key) return undefined;
  const reads = firstReads(path, query);
  if (!reads) return undefined;
  const answers: Preload['answers'] = {};
  const read = async (v3Path: string) => {
    const res = await api(new Request(`${origin}/app/_${v3Path}`, { headers: { 'x-api-key': key } }), { ...info, apiKey: key }, emu);
    if (!res || !(res.headers.get('content-type') ?? '').startsWith('application/json')) return undefined;
    const body = await res.json();
    answers[v3Path] = { status: res.status, body };
    return body;
  };
  const [checklist] = await Promise.all(reads.map(read));
  // The checklist page also reads its template's document (stop tasks, field options).
  if (path.startsWith('/app/checklists/') && checklist?.template?.key) await read(`/v3/templates/${enc(checklist.template.key)}/document?version=${checklist.version}`);
  return { k: keyHash(key), answers };
}
