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

/**
 * A bounded map in two tiers, so a flood of new ids never evicts one in use: an id starts
 * unused (made, never sent back) and is used from the first time it is looked up. New unused
 * ids evict the oldest unused one (LIMIT of them); used ids evict the least recently used
 * one (LIMIT of them). Every cookieless page load makes an unused session, and a page of
 * another site can make them by the thousand (an image tag sends no Origin): they only push
 * out each other (docs/reliability.md 12).
 */
class Bounded<V> {
  private readonly unused = new Map<string, V>();
  private readonly used = new Map<string, V>();

  add(value: V): string {
    const id = randomBytes(18).toString('base64url');
    if (this.unused.size >= LIMIT) this.unused.delete(this.unused.keys().next().value!);
    this.unused.set(id, value);
    return id;
  }

  get(id: string | undefined): V | undefined {
    if (id === undefined) return undefined;
    let value = this.used.get(id);
    if (value !== undefined) this.used.delete(id); // moved to the newest end: least recently used goes first
    else {
      value = this.unused.get(id);
      if (value === undefined) return undefined;
      this.unused.delete(id);
      if (this.used.size >= LIMIT) this.used.delete(this.used.keys().next().value!);
    }
    this.used.set(id, value);
    return value;
  }

  delete(id: string | undefined): void {
    if (id === undefined) return;
    this.unused.delete(id);
    this.used.delete(id);
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
