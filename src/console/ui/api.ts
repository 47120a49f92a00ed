// The console calls the v3 operations through its own route family, /app/_/v3/... (the same
// operations and answers, charged to no rate budget; src/console/api.ts), with X-API-KEY (the
// picked key), and /_emulator with the admin token. Every answer comes back as it came:
// status, body, and for a refusal the API's own error object, which pages show word for word.
import { session } from './session';
import { keyHash } from './key-hash';

/** The first page's data the server read for this browser's key (src/console/preload.ts), each answer used once. */
const preloaded: { k: string; answers: Record<string, { status: number; body: any }> } | undefined = (() => {
  try {
    return JSON.parse(document.getElementById('wfe-preload')?.textContent ?? 'null') ?? undefined;
  } catch {
    return undefined;
  }
})();

export interface ApiErrorBody {
  code: string;
  message: string;
  requestId?: string;
  field?: string;
  url?: string;
  [k: string]: unknown;
}

export interface Answer<T = any> {
  ok: boolean;
  status: number;
  body: T;
  error?: ApiErrorBody;
}

async function call(method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<Answer> {
  const h: Record<string, string> = { ...headers };
  let payload: BodyInit | undefined;
  if (body instanceof Blob || body instanceof ArrayBuffer) payload = body as BodyInit;
  else if (body !== undefined) {
    payload = JSON.stringify(body);
    h['Content-Type'] = 'application/json';
  }
  let res: Response;
  try {
    res = await fetch(path, { method, headers: h, body: payload });
  } catch (e) {
    return { ok: false, status: 0, body: undefined, error: { code: 'NETWORK_ERROR', message: `The emulator did not answer (${String(e)}).` } };
  }
  const text = await res.text();
  let parsed: any;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = text;
  }
  const error = !res.ok ? (parsed?.error as ApiErrorBody | undefined) ?? { code: `HTTP_${res.status}`, message: String(text).slice(0, 500) } : undefined;
  return { ok: res.ok, status: res.status, body: parsed, error };
}

/** The console's route of a /v3 path. */
export const consolePath = (path: string) => `/app/_${path}`;

/**
 * A v3 operation as the picked key, through the console's route family. A restarted emulator
 * has forgotten the browser's console session: loading a page shell gives a new one.
 */
export async function v3(method: string, path: string, body?: unknown): Promise<Answer> {
  const first = method === 'GET' && preloaded && session.key && preloaded.answers[path] && preloaded.k === keyHash(session.key) ? preloaded.answers[path] : undefined;
  if (first) {
    delete preloaded!.answers[path];
    const ok = first.status < 400;
    return { ok, status: first.status, body: first.body, error: ok ? undefined : first.body?.error };
  }
  const headers: Record<string, string> = {};
  if (session.key) headers['X-API-KEY'] = session.key;
  const a = await call(method, consolePath(path), headers, body);
  if (a.status !== 401 || a.error?.code !== 'CONSOLE_SESSION_REQUIRED') return a;
  await fetch('/app', { cache: 'no-store' }).catch(() => undefined);
  return call(method, consolePath(path), headers, body);
}

/** A /_emulator call with the admin token when signed in. */
export function admin(method: string, path: string, body?: unknown): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (session.token) headers.Authorization = `Bearer ${session.token}`;
  return call(method, path, headers, body);
}

/** `/app/...` of an absolute `url` the API returned (links stay inside this address's console). */
export function appPath(url: string | undefined): string {
  if (!url) return '#';
  try {
    const u = new URL(url, location.href);
    return u.origin === location.origin ? u.pathname + u.search : u.href;
  } catch {
    return '#';
  }
}

export const enc = encodeURIComponent;
