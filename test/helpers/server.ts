// Test helpers: a real emulator on free ports, spoken to over HTTP and MCP.
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { start, type StartOptions, type Started } from '../../src/start';

export const ROOT = join(__dirname, '..', '..');

/**
 * How long a helper waits for a readiness signal (a banner, a port answering, a delivery arriving,
 * a condition holding) before failing. A guard against a hang only, never a clock a test relies
 * on: it is long because a loaded machine (two suites side by side on two cores) can take tens of
 * seconds to start a process. WFE_TEST_PATIENCE_MS changes it.
 */
export const PATIENCE_MS = Number(process.env.WFE_TEST_PATIENCE_MS) || 120_000;

/**
 * The node arguments that run `wfe <args>` from source. Under `npm test` (test/run.mjs) the CLI
 * loads the code the run compiled once (test/helpers/compiled.cjs: ~0.4 s of CPU a start against
 * ~0.9 s through tsx); a test file run on its own with `node --import tsx --test` uses tsx, named
 * by its absolute URL so that a child in a temporary directory finds it too.
 */
export function fromSource(args: string[]): string[] {
  const preload = process.env.WFE_TEST_PRELOAD;
  const cli = join(ROOT, 'src', 'cli.ts');
  return preload && existsSync(preload) ? ['--require', preload, '--enable-source-maps', cli, ...args] : ['--import', pathToFileURL(require.resolve('tsx')).href, cli, ...args];
}

/** What a Streamable HTTP client sends as Accept on POST /mcp. */
export const MCP_ACCEPT = { Accept: 'application/json, text/event-stream' };

export const KEYS = {
  admin: 'acme-admin-key',
  owner: 'acme-owner-key',
  member: 'acme-member-key',
  noperm: 'acme-noperm-key',
  workspace: 'acme-workspace-key',
  revoked: 'acme-revoked-key',
  expired: 'acme-expired-key',
  unavailable: 'acme-unavailable-key',
  globexAdmin: 'globex-admin-key',
  globexWorkspace: 'globex-workspace-key',
} as const;

/** Paula Planner's key: a Member holding Schedule.Creator and Library.Creator (not in KEYS, which other tests walk; the permission matrix adds it). */
export const PLANNER_KEY = 'acme-planner-key';

/** Fixed identifiers of the demo fixture (README "The demo fixture"). */
export const DEMO = {
  acme: '10000000-0000-4000-8000-000000000001',
  globex: '10000000-0000-4000-8000-000000000002',
  onboarding: '20000000-0000-4000-8000-000000000001',
  expense: '20000000-0000-4000-8000-000000000002',
  vendor: '20000000-0000-4000-8000-000000000003',
  oldProcess: '20000000-0000-4000-8000-000000000004',
  globexAudit: '20000000-0000-4000-8000-000000000011',
  janeDoe: '30000000-0000-4000-8000-000000000001',
  johnRoe: '30000000-0000-4000-8000-000000000002',
  expenseMarch: '30000000-0000-4000-8000-000000000003',
  archivedOnboarding: '30000000-0000-4000-8000-000000000004',
  globexChecklist: '30000000-0000-4000-8000-000000000011',
  renewInsurance: '40000000-0000-4000-8000-000000000001',
  businessCards: '40000000-0000-4000-8000-000000000002',
  offices: '50000000-0000-4000-8000-000000000001',
  members: { ada: 101, omar: 102, mia: 103, nora: 104, gus: 105, dee: 106, alexKim1: 107, alexKim2: 108, smith: 109, paula: 110, gina: 201 },
  groups: { operations: 301, sales: 302, empty: 303 },
  tasks: {
    heading: '21000000-0000-4000-8000-000000000101',
    collectDetails: '21000000-0000-4000-8000-000000000102',
    contractorAgreement: '21000000-0000-4000-8000-000000000103',
    managerApproval: '21000000-0000-4000-8000-000000000104',
    setUpEquipment: '21000000-0000-4000-8000-000000000105',
    firstDayWelcome: '21000000-0000-4000-8000-000000000106',
    sendWelcomePack: '21000000-0000-4000-8000-000000000107',
    submitReceipts: '21000000-0000-4000-8000-000000000201',
  },
} as const;

export interface ApiAnswer {
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

export interface TestServer extends Started {
  us: string;
  eu: string;
  /** fetch against the US address (or `base`), returning status, headers and parsed body. */
  api(key: string | null, method: string, path: string, body?: unknown, headers?: Record<string, string>, base?: string): Promise<ApiAnswer>;
  mcp(key: string, region?: 'US' | 'EU'): Promise<Client>;
}

export async function startTestServer(opts: StartOptions = {}): Promise<TestServer> {
  const s = await start({ portUs: 0, portEu: 0, log: () => {}, contractCheck: true, memoVerify: true, ...opts });
  const clients: Client[] = [];
  const api: TestServer['api'] = async (key, method, path, body, headers = {}, base) => {
    const h: Record<string, string> = { ...headers };
    if (key !== null) h['X-API-KEY'] = key;
    let payload: string | undefined;
    if (body !== undefined) {
      payload = typeof body === 'string' ? body : JSON.stringify(body);
      h['Content-Type'] ??= 'application/json';
    }
    const res = await fetch((base ?? s.urls.US) + path, { method, headers: h, body: payload });
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: res.status, headers: res.headers, text, body: parsed };
  };
  return {
    ...s,
    us: s.urls.US,
    eu: s.urls.EU,
    api,
    mcp: async (key, region = 'US') => {
      const c = await mcpHttpClient(`${s.urls[region]}/mcp`, key);
      clients.push(c);
      return c;
    },
    close: async () => {
      await Promise.all(clients.map((c) => c.close().catch(() => {})));
      await s.close();
    },
  };
}

export async function mcpHttpClient(url: string, key: string): Promise<Client> {
  const client = new Client({ name: 'wfe-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { 'X-API-KEY': key } } }));
  return client;
}

/** A real `wfe mcp` process over stdio (from source, see `fromSource`). */
export async function mcpStdioClient(key: string | undefined, args: string[] = [], env: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'wfe-test-stdio', version: '1.0.0' });
  const childEnv: Record<string, string> = { ...(process.env as Record<string, string>), WFE_CLI: '1', WFE_CONTRACT_CHECK: '1', WFE_MEMO_VERIFY: '1', ...env };
  if (key !== undefined) childEnv.SVC_API_KEY = key;
  else delete childEnv.SVC_API_KEY;
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: fromSource(['mcp', ...args]),
      env: childEnv,
      cwd: ROOT,
      stderr: 'pipe',
    }),
  );
  return client;
}

/** Calls a tool and returns its structuredContent and flags. */
export async function callTool(client: Client, name: string, args: Record<string, unknown> = {}): Promise<{ isError: boolean; body: any; text: string; meta?: any }> {
  const r = (await client.callTool({ name, arguments: args })) as { isError?: boolean; structuredContent?: unknown; content: { type: string; text: string }[]; _meta?: unknown };
  return { isError: r.isError === true, body: r.structuredContent, text: r.content[0]?.text ?? '', meta: r._meta };
}

/** Drops the request id so REST and MCP refusals compare equal apart from it. */
export function withoutRequestId(body: any): any {
  if (body && typeof body === 'object' && body.error) return { error: { ...body.error, requestId: '<id>' } };
  return body;
}

/**
 * A server on a database file and a second process on the same file (`wfe mcp --db F`, the Admin's
 * key), both closed and the file removed after `fn`.
 */
export async function besideOneFile(fn: (served: TestServer, other: Client) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'wfe-shared-'));
  const file = join(dir, 'shared.db');
  const served = await startTestServer({ db: file });
  try {
    const other = await mcpStdioClient(KEYS.admin, ['--db', file]);
    try {
      await fn(served, other);
    } finally {
      await other.close().catch(() => {});
    }
  } finally {
    await served.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Requests a budget was charged from answer `a` (exclusive) to answer `b` (inclusive), read
 * from their headers. Windows start on the hour UTC (spec v3 8), so a test that waits can
 * straddle one: then `b`'s window counts only what was charged since the refill.
 */
export function budgetSpent(a: { headers: Headers }, b: { headers: Headers }): number {
  const left = (r: { headers: Headers }) => Number(r.headers.get('x-ratelimit-remaining'));
  assert.equal(b.headers.get('x-ratelimit-bucket'), a.headers.get('x-ratelimit-bucket'), 'the same budget');
  if (a.headers.get('x-ratelimit-reset') === b.headers.get('x-ratelimit-reset')) return left(a) - left(b);
  return Number(b.headers.get('x-ratelimit-limit')) - left(b);
}
