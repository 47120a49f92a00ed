// Who may talk to the emulator at all (docs/security.md): a web page on another origin must
// not drive it (browsers send "simple" cross-site POSTs without a preflight), and a DNS
// rebinding page, whose requests carry a foreign Host, must not either (the MCP
// specification requires servers to validate Origin for this reason). One check, at the
// edge, for every route family: /v3, /mcp, /api, /_emulator, /app, /files.
// Requests without Origin (curl, SDKs, agents) pass whatever their Content-Type.
import { ApiError, validationError } from '../../errors';
import { errorParts, type Family, type Parts } from '../web/respond';

/** What the check is told about one request: the raw headers, as sent. */
export interface EdgeFacts {
  host: string | null;
  origin: string | null;
}

/** What is allowed: the server adds its ports once it listens (addPort). */
export interface EdgePolicy {
  /** Host names (lower case, IPv6 in brackets) a Host header may name; the port is not compared. */
  hosts: Set<string>;
  /** `.example.test` given to --allow-host: that domain and every name under it. */
  domains: string[];
  /**
   * `*` given to --allow-host (the container image's default, docs/container.md): also any
   * name a DNS rebinding page cannot carry, a name of one label (a compose service, a container
   * name, a network alias) or an IP address. And a page is own when it came from the address the
   * request was sent to (a port mapping changes the port its pages carry).
   */
  unrebindable: boolean;
  /** The emulator's own ports ('' = the scheme's default, for the library's internal addresses). */
  ports: Set<string>;
  /** Origins given to --allow-origin, as `URL.origin` writes them. */
  origins: Set<string>;
}

/** The names every emulator answers to, whatever it is bound to (Vite's server.allowedHosts is the precedent). */
const LOOPBACK = ['localhost', '127.0.0.1', '[::1]'];

/** The host name as a Host header or URL writes it: lower case, IPv6 in brackets. */
export function hostName(host: string): string {
  const h = host.trim().toLowerCase();
  return h.includes(':') && !h.startsWith('[') ? `[${h}]` : h;
}

/** An --allow-origin value as URL.origin writes it, or undefined when it is not an http(s) origin. */
export function normaliseOrigin(value: string): string | undefined {
  try {
    const u = new URL(value.trim());
    if ((u.protocol !== 'http:' && u.protocol !== 'https:') || u.username || u.password || (u.pathname !== '/' && u.pathname !== '') || u.search || u.hash) return undefined;
    return u.origin;
  } catch {
    return undefined;
  }
}

export function edgePolicy(o: { bound?: string; allowHosts?: readonly string[]; allowOrigins?: readonly string[]; internalHosts?: readonly string[] }): EdgePolicy {
  const hosts = new Set(LOOPBACK);
  // A wildcard bind names no host: remote names must be given with --allow-host.
  if (o.bound && o.bound !== '0.0.0.0' && o.bound !== '::') hosts.add(hostName(o.bound));
  for (const h of o.internalHosts ?? []) hosts.add(hostName(h));
  const domains: string[] = [];
  let unrebindable = false;
  for (const h of o.allowHosts ?? []) {
    const n = hostName(h);
    if (n === '*') unrebindable = true;
    else if (n.startsWith('.') && n.length > 1) domains.push(n);
    else if (n) hosts.add(n);
  }
  const origins = new Set<string>();
  for (const v of o.allowOrigins ?? []) {
    const n = normaliseOrigin(v);
    if (n) origins.add(n);
  }
  return { hosts, domains, unrebindable, ports: new Set(), origins };
}

const allowedName = (p: EdgePolicy, name: string) => p.hosts.has(name) || p.domains.some((d) => name.endsWith(d) || name === d.slice(1));

/** A rebinding page needs a name its attacker resolves in public DNS, so one with a dot; an IP address resolves to nothing else. */
const unrebindableName = (name: string) => /^[a-z0-9_-]+$/.test(name) || /^\d{1,3}(\.\d{1,3}){3}$/.test(name) || /^\[[0-9a-f:.]+\]$/.test(name);

/** The name part of a Host header (`[::1]:8787` → `[::1]`), or undefined when it is not one. */
function nameOfHost(header: string): string | undefined {
  const h = header.trim().toLowerCase();
  const m = /^(\[[0-9a-f:.]+\]|[^\s:[\]/@?#\\]+)(?::\d*)?$/.exec(h);
  return m?.[1];
}

/** The check itself: a refusal, or null when the request may go on. Pure: no I/O. */
export function checkHostAndOrigin(facts: EdgeFacts, p: EdgePolicy): ApiError | null {
  // HTTP/1.0 allows a request without Host: accepted (it cannot be a rebinding browser).
  if (facts.host !== null && facts.host !== '') {
    const name = nameOfHost(facts.host);
    // Not a host name at all: the 400 the adapter gives any request it cannot parse.
    if (name === undefined) return validationError('Invalid request: invalid host header.');
    if (!allowedName(p, name) && !(p.unrebindable && unrebindableName(name))) {
      return new ApiError(
        403,
        'HOST_NOT_ALLOWED',
        `The Host header names ${JSON.stringify(facts.host.slice(0, 200))}, which is not an address of this emulator. Allowed: localhost, 127.0.0.1, [::1], the bound address and names given to --allow-host${p.unrebindable ? " (with '*': also names of one label and IP addresses)" : ''} (docs/security.md).`,
      );
    }
  }
  if (facts.origin !== null && !ownOrigin(facts.origin, p, facts.host)) {
    return new ApiError(
      403,
      'ORIGIN_NOT_ALLOWED',
      `Requests from web pages on ${JSON.stringify(facts.origin.slice(0, 200))} are refused: it is not one of the emulator's own addresses or an origin given to --allow-origin (docs/security.md).`,
    );
  }
  return null;
}

/**
 * The emulator's own pages (`http://<an allowed host>:<one of its ports>`) or an --allow-origin one;
 * with `*`, also the page of the very address the request was sent to: `*` widens who may reach
 * the emulator, not which other pages may drive it.
 */
function ownOrigin(origin: string, p: EdgePolicy, host: string | null): boolean {
  const o = origin.trim();
  if (p.origins.has(o)) return true;
  let u: URL;
  try {
    u = new URL(o);
  } catch {
    return false; // `null` (sandboxed frames, file: pages) and anything else unreadable
  }
  if (p.origins.has(u.origin)) return true;
  if (u.protocol !== 'http:') return false;
  if (allowedName(p, u.hostname) && p.ports.has(u.port)) return true;
  // With `*` (a container behind a port mapping or on a container network): a page is own when
  // it came from the very address this request was sent to, the Host the check above admitted.
  return p.unrebindable && host !== null && `${u.hostname}:${u.port || '80'}` === withPort(host);
}

/** A Host header as `name:port` (80 when it names none). */
function withPort(host: string): string {
  const h = host.trim().toLowerCase();
  const name = nameOfHost(h);
  const port = name === undefined ? '' : h.slice(name.length + 1);
  return `${name}:${port || '80'}`;
}

/** The route family a path belongs to, for the shape of a refusal made before routing: JSON-RPC on /mcp, legacy on /api, v3 elsewhere. */
export function familyOfPath(path: string): Family {
  if (path === '/mcp' || path.startsWith('/mcp/') || path.startsWith('/mcp?')) return 'mcp';
  if (path.startsWith('/api/') || path === '/api') return 'legacy';
  return 'v3';
}

/** The refusal in the shape of the route family it was aimed at (no JSON-RPC id is known: the body is not read). */
export function refusalParts(err: ApiError, path: string, requestId: string): Parts {
  return errorParts(err, requestId, {}, undefined, familyOfPath(path));
}

/** The path of a request target, for choosing the refusal's shape (`*`, absolute forms included). */
export function pathOfTarget(target: string): string {
  if (target.startsWith('/')) return target;
  try {
    return new URL(target).pathname;
  } catch {
    return target;
  }
}

/** One of the emulator's own ports: its pages' origins carry it (80 is written as no port). */
export function addPort(p: EdgePolicy, port: number | string): void {
  const s = String(port);
  p.ports.add(s === '80' ? '' : s);
}
