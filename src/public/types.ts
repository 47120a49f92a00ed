// The library's public types (`import { startEmulator } from 'wfe'`). This file has
// no imports on purpose: build.mjs ships it as dist/lib/index.d.ts (adding the
// declaration of startEmulator), and src/library/index.ts is checked against it.

export type Region = 'US' | 'EU';

/** Delivery settings (docs/webhooks.md "Retries"). Defaults are the documented schedule; tests and `wfe serve` may shorten them. */
export interface WebhookOptions {
  /** Real milliseconds to wait for the receiver's answer (connect + headers + body). Default 10 s. */
  timeoutMs?: number;
  /** Wait before the first retry; doubled for each further one. Emulator clock. Default 10 s. */
  retryBaseMs?: number;
  /** Attempts in all before a delivery is marked failed. Default 8. */
  maxAttempts?: number;
  /** How often (real ms) the sender looks for due deliveries; it is also woken after every event. Default 100. */
  pollMs?: number;
  /** Emulator-clock delay between an event and its processing ("shortly after", spec v3 6.3). Default 0. */
  processDelayMs?: number;
  /** Deliveries in flight at once, all targets together. Default 64 (docs/webhooks.md "Fair delivery"). */
  concurrency?: number;
  /** Deliveries in flight at once to one target URL while it answers 2xx; 1 after it fails, until it answers 2xx again. Default 4. */
  perTargetConcurrency?: number;
  /** Emulator only: send every event of every workspace to this URL without subscribing. */
  forwardEvents?: string;
}

export interface StartEmulatorOptions {
  /** 'demo' (default), 'none', a directory holding fixture.json, a path to a fixture.json, or a fixture object (docs/fixtures.md). */
  fixture?: string | Record<string, unknown>;
  /** A SQLite file to keep the data in (seeded only when new); default in memory. */
  db?: string;
  /** Rate budgets per workspace per hour (defaults 1000 and 10000). */
  budgets?: { standard?: number; cheap?: number };
  /** Where the emulator clock starts (ISO date-time, Date or epoch ms), and whether it stands still. Default: now, running. */
  clock?: { start?: string | number | Date; frozen?: boolean };
  /** Webhook delivery settings (docs/webhooks.md "Retries"). */
  webhooks?: WebhookOptions;
  /** Listen on sockets (default true). false: only the in-process fetch answers (no ports at all). */
  listen?: boolean;
  /** Address to bind (default 127.0.0.1). */
  host?: string;
  /** Ports of the regional addresses (default 0: free ports). */
  ports?: { US?: number; EU?: number };
  /** Require Authorization: Bearer <token> on /_emulator routes. */
  adminToken?: string;
  /** Web page origins allowed besides the emulator's own, e.g. a dev server's `http://localhost:5173` (docs/security.md). */
  allowOrigins?: string[];
  /** Host names allowed besides localhost, 127.0.0.1, [::1] and the bound address; `'*'` also allows names of one label and IP addresses (docs/security.md). */
  allowHosts?: string[];
  /** Where internal errors are logged (default: nowhere). */
  log?: (line: string) => void;
  /** Limits of `instances` (docs/instances.md): idle time before one is stopped (ms, default 30 min) and how many at once (default 64). */
  instances?: { ttlMs?: number; max?: number };
}

/** What `instances.create` accepts, as POST /_emulator/instances does (docs/instances.md). */
export interface InstanceOptions {
  /** A built-in fixture's name ('demo', 'none'); default the emulator's own fixture. Never a path. */
  fixture?: string;
  /** Where the instance's own clock starts and whether it stands still. Default: now, running. */
  clock?: { now?: string | number | Date; frozen?: boolean };
  /** The instance's rate budgets per workspace per hour; default the emulator's. */
  budgets?: { standard?: number; cheap?: number };
}

/** One isolated instance, as POST and GET /_emulator/instances describe it. */
export interface InstanceDescription {
  id: string;
  fixture: string;
  baseUrls: Record<Region, string>;
  mcpUrls: Record<Region, string>;
  createdAt: string;
  lastRequestAt: string;
  /** When it is stopped unless a request comes first. */
  expiresAt: string;
}

export interface EmulatorInstance extends InstanceDescription {
  /** Answers without a socket, like the emulator's own fetch; counts as a request for the TTL. */
  fetch(input: string | URL | Request, init?: RequestInit): Promise<Response>;
  /** Stops it: workers end, ports close; safe to call twice. */
  delete(): Promise<void>;
}

export interface EmulatorInstances {
  /** A new isolated emulator in this process (its own database, clock, budgets, journal, webhooks, faults). Refusals throw an Error with `status`, `code` and `extras.field`. */
  create(options?: InstanceOptions): Promise<EmulatorInstance>;
  list(): InstanceDescription[];
  /** Stops one; false when there is no such instance (already deleted or reaped). */
  delete(id: string): Promise<boolean>;
}

export interface CreateKeyInput {
  /** The workspace key (teamId). */
  workspace: string;
  /** 1 to 100 characters. */
  name: string;
  actsAs: { type: 'member'; id: number } | { type: 'workspace' };
  /** The last day the key works (YYYY-MM-DD, to the end of that day UTC); null or absent: never expires. */
  expiresOn?: string | null;
  /** The X-API-KEY value (8 to 200 printable characters, unique); absent: generated. */
  key?: string;
  /** The Administrator making the change; absent: the workspace's first Administrator. */
  by?: number;
}

export interface UpdateKeyInput {
  name?: string;
  actsAs?: { type: 'member'; id: number } | { type: 'workspace' };
  expiresOn?: string | null;
  by?: number;
}

export interface ApiKeyInfo {
  id: number;
  workspace: string;
  region: Region;
  name: string;
  actsAs: { type: 'member'; id: number; name: string; role: string } | { type: 'workspace' };
  state: 'active' | 'revoked' | 'expired' | 'unavailable';
  createdDateTime: string;
  expiresOn?: string;
  revokedDateTime?: string;
}

export interface KeyChange {
  apiKey: ApiKeyInfo;
  /** On create only: the X-API-KEY value, shown this once. */
  key?: string;
  /** The Administrator the change is made as (5.2). */
  by: { id: number; name: string };
  /** The other Administrators notified of a create or a revoke (spec v3 5.2). */
  notified: { id: number; name: string }[];
}

export interface FixtureKeyInfo {
  key: string;
  workspace: string;
  workspaceKey: string;
  region: Region;
  actsAs: string;
  memberId?: number;
  /** The member's permissions (spec v3 5.5) the fixture grants; absent when none. */
  rights?: string[];
  state: 'active' | 'revoked' | 'expired' | 'unavailable';
  expiresOn?: string;
}

export interface JournalEntry {
  /** When the request arrived (emulator clock, ISO ending Z). */
  at: string;
  method: string;
  path: string;
  status: number;
  /** Name of the API key that authenticated it; absent when none did. */
  keyName?: string;
  requestId: string;
  durationMs: number;
  region: Region;
  /** Set when an injected fault answered, delayed or dropped the call. */
  fault?: { rule: string; kind: 'status' | 'delay' | 'drop' };
  /** The web console's own traffic (/app: its pages, feed and API routes); hidden unless asked for. */
  console?: true;
}

export interface FaultRuleInput {
  /** HTTP method of a path rule (default any). */
  method?: string;
  /** Path pattern: `*` one segment, `**` any rest, `:name` one segment. Exactly one of path or tool. */
  path?: string;
  /** MCP tool name (tools/call over /mcp). */
  tool?: string;
  region?: Region;
  /** Answer this status (400-599) in the v3 error envelope (429 with Retry-After and the rate-limit headers). */
  status?: number;
  code?: string;
  message?: string;
  retryAfter?: number;
  bucket?: 'standard' | 'cheap';
  /** Wait this long (real ms) first; alone, the call then runs as usual. */
  delayMs?: number;
  /** Close the connection without an answer (the in-process fetch rejects with TypeError 'fetch failed'). */
  drop?: boolean;
  /** Only the next N matching calls. */
  times?: number;
  /** Chance (0-1) that a matching call is faulted, drawn from `seed`. */
  probability?: number;
  seed?: number;
}

export interface FaultRule extends FaultRuleInput {
  id: string;
  hits: number;
  remaining?: number;
}

export interface DeliveryFilter {
  status?: string;
  eventType?: string;
  subscription?: string;
  workspace?: string;
  event?: string;
  limit?: number;
}

/** One webhook delivery, as GET /_emulator/webhooks/deliveries shows it (docs/webhooks.md). */
export interface Delivery {
  id: string;
  status: string;
  workspace: string;
  event: { id: string; type: string; state: string; createdDateTime?: string; dropReason?: string };
  targetUrl: string;
  attempts: number;
  request: { method: string; url: string; headers?: Record<string, string>; body?: string };
  [more: string]: unknown;
}

export interface EmulatorClock {
  /** The emulator's time. */
  now(): Date;
  /** Move to a date-time (ISO string, Date or epoch ms); stays frozen if it was, unless `frozen` says. */
  set(to: string | number | Date, options?: { frozen?: boolean }): Date;
  /** Move forward by milliseconds or by { days, hours, minutes, seconds }. */
  advance(by: number | { days?: number; hours?: number; minutes?: number; seconds?: number }): Date;
  /** Stop the clock where it is (or at `at`). */
  freeze(at?: string | number | Date): Date;
  /** Let it run again from where it stands. */
  unfreeze(): Date;
  readonly frozen: boolean;
}

export interface EmbeddedEmulator {
  /** REST base addresses (http://127.0.0.1:<port>); in-process only (listen: false): http://us.wfe.internal and http://eu.wfe.internal. */
  readonly urls: Record<Region, string>;
  /** MCP Streamable HTTP addresses. */
  readonly mcpUrls: Record<Region, string>;
  /** The fixture's API keys. */
  readonly keys: FixtureKeyInfo[];
  /** Answers without a socket. A relative URL goes to the US address; a URL on the EU address (or its host) to EU. */
  fetch(input: string | URL | Request, init?: RequestInit): Promise<Response>;
  /** Wipes every row, reloads the fixture (re-read from disk for a directory), clears fault rules, budgets and the journal. */
  reset(): Promise<void>;
  readonly clock: EmulatorClock;
  readonly faults: {
    add(rule: FaultRuleInput): FaultRule;
    list(): FaultRule[];
    remove(id: string): boolean;
    clear(): void;
  };
  /**
   * API keys made, changed and revoked while running (spec v3 5.2; README "Control routes",
   * /_emulator/keys). Workspace data: a reset brings back the fixture's keys alone.
   */
  readonly apiKeys: {
    list(workspace?: string): ApiKeyInfo[];
    get(id: number): ApiKeyInfo;
    /** `key` (the X-API-KEY value) is returned once; leave it out and one is generated. */
    create(input: CreateKeyInput): KeyChange;
    update(id: number, input: UpdateKeyInput): KeyChange;
    /** A revoked key answers 401 API_KEY_REVOKED from the next request on and cannot be restored. */
    revoke(id: number, input?: { by?: number }): KeyChange;
  };
  /** The request journal, newest first. */
  journal(limit?: number): JournalEntry[];
  /** Webhook deliveries, newest first. */
  deliveries(filter?: DeliveryFilter): Delivery[];
  /** Waits until no delivery is due or in flight. */
  settleWebhooks(): Promise<void>;
  /** Isolated instances on demand (docs/instances.md), as /_emulator/instances serves them. */
  readonly instances: EmulatorInstances;
  /** Stops the servers and workers and closes the database; safe to call twice. */
  close(): Promise<void>;
  /** `await using emu = await startEmulator()` closes it at the end of the block. */
  [Symbol.asyncDispose](): Promise<void>;
}
