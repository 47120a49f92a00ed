// The console's browser sessions, in memory (a restart forgets them; the page gets a new
// one from the next shell it loads). Three kinds, each an opaque random id:
// - a console session (cookie `wfe_console`, set with every page shell): the /app/_/v3
//   routes answer only a browser that loaded a console page, so no header turns a /v3
//   client into an uncharged one;
// - a feed ticket: the workspace one page's change feed follows (EventSource sends no
//   X-API-KEY, and a key does not belong in a URL);
// - an admin sign-in (cookie `wfe_admin`, set by POST /app/_/sign-in with the token): what
//   lets the panel's EventSource through the admin gate.
import { randomBytes } from 'node:crypto';

const LIMIT = 10_000;

/** A bounded map: the oldest entry goes when it is full. */
class Bounded<V> {
  private readonly map = new Map<string, V>();

  add(value: V): string {
    const id = randomBytes(18).toString('base64url');
    if (this.map.size >= LIMIT) this.map.delete(this.map.keys().next().value!);
    this.map.set(id, value);
    return id;
  }

  get(id: string | undefined): V | undefined {
    return id === undefined ? undefined : this.map.get(id);
  }

  delete(id: string | undefined): void {
    if (id !== undefined) this.map.delete(id);
  }
}

/** A browser's console session: the key its pages last followed (for the first page's data, preload.ts). */
export interface BrowserSession {
  key?: string;
}

export class ConsoleSessions {
  readonly browsers = new Bounded<BrowserSession>();
  readonly feeds = new Bounded<number>();
  readonly admins = new Bounded<true>();
}

export const CONSOLE_COOKIE = 'wfe_console';
export const ADMIN_COOKIE = 'wfe_admin';

/** A cookie of the request by name (the first one). */
export function cookie(req: Request, name: string): string | undefined {
  const header = req.headers.get('cookie');
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** HttpOnly and SameSite=Strict: no script reads it, no other site's page sends it. */
/** The console session goes to every /app path (its page shells carry the first data); the admin sign-in only to /app/_ (the feeds). */
export const setCookie = (name: string, value: string, maxAge?: number) =>
  `${name}=${value}; Path=${name === CONSOLE_COOKIE ? '/app' : '/app/_'}; HttpOnly; SameSite=Strict${maxAge !== undefined ? `; Max-Age=${maxAge}` : ''}`;
