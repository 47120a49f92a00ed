// The console is an ordinary client: /v3 with X-API-KEY (the picked key), /_emulator with
// the admin token. Every answer comes back as it came: status, body, and for a refusal the
// API's own error object, which pages show word for word.
import { session } from './session';

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

/** A /v3 call as the picked key. */
export function v3(method: string, path: string, body?: unknown): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (session.key) headers['X-API-KEY'] = session.key;
  return call(method, path, headers, body);
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
