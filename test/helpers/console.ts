// Shared by the console's browser tests: a headless Chromium (Debian's `chromium`,
// playwright-core), tabs that collect page errors, axe-core, and a Server-Sent Events
// reader for the console's change feeds.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

import { CHROMIUM } from './browser';
import { PATIENCE_MS, ROOT, startTestServer, type TestServer } from './server';
export { CHROMIUM };

export interface Browser {
  context: BrowserContext;
  tab(): Promise<Page & { errors: string[] }>;
  close(): Promise<void>;
}

/**
 * `keys`: the key each origin's console acts as from the first page (origin -> key), stored as
 * a user's choice would be. A fresh browser is otherwise asked who to act as (issue 40).
 */
export async function launch(keys: Record<string, string> = {}): Promise<Browser> {
  assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is missing: apt-get install -y chromium (.ci/run does this)`);
  const profile = mkdtempSync(join(tmpdir(), 'wfe-console-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    viewport: { width: 1280, height: 900 },
  });
  if (Object.keys(keys).length) {
    await context.addInitScript((chosen: Record<string, string>) => {
      const k = chosen[location.origin];
      try {
        if (k && !localStorage.getItem('wfe.console.key')) localStorage.setItem('wfe.console.key', k);
      } catch {
        /* about:blank has no storage */
      }
    }, keys);
  }
  return {
    context,
    async tab() {
      const page = (await context.newPage()) as Page & { errors: string[] };
      page.errors = [];
      page.on('pageerror', (e) => page.errors.push(e.message));
      return page;
    },
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

export async function axe(page: Page, label: string): Promise<void> {
  // Evaluated through the DevTools protocol, which the page's CSP does not govern.
  await page.evaluate(readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8'));
  const result = await page.evaluate(async () => {
     
    const r = await (window as any).axe.run(document, { resultTypes: ['violations'] });
     
    return r.violations.map((v: any) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length, help: v.help, target: v.nodes[0]?.target }));
  });
  const serious = result.filter((v: { impact: string }) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(serious, [], `${label}: axe-core serious violations ${JSON.stringify(serious)}`);
}

/** The cookie a response set, as a Cookie request header value (`name=value`). */
export function cookieOf(res: Response, name: string): string {
  const set = res.headers.getSetCookie().find((c) => c.startsWith(`${name}=`));
  assert.ok(set, `no ${name} cookie in ${JSON.stringify(res.headers.getSetCookie())}`);
  return set.split(';')[0];
}

/** An open Server-Sent Events stream: its raw text so far, and the events' data parsed. */
export interface Feed {
  status: number;
  raw(): string;
  events(): unknown[];
  /** Waits until at least `n` events arrived (or fails after `ms`). */
  waitFor(n: number, ms?: number): Promise<unknown[]>;
  close(): void;
}

export async function openFeed(url: string, headers: Record<string, string> = {}): Promise<Feed & { body?: unknown }> {
  const ac = new AbortController();
  const res = await fetch(url, { headers, signal: ac.signal });
  if (!res.headers.get('content-type')?.startsWith('text/event-stream')) {
    const body = await res.json().catch(() => undefined);
    return { status: res.status, body, raw: () => '', events: () => [], waitFor: async () => [], close: () => ac.abort() };
  }
  let text = '';
  const reader = res.body!.getReader();
  const dec = new TextDecoder();
  void (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        text += dec.decode(value, { stream: true });
      }
    } catch {
      /* aborted */
    }
  })();
  const events = () =>
    text
      .split('\n\n')
      .filter((block) => block.startsWith('data: '))
      .map((block) => JSON.parse(block.slice(6)));
  return {
    status: res.status,
    raw: () => text,
    events,
    async waitFor(n, ms = PATIENCE_MS) {
      const until = Date.now() + ms;
      while (events().length < n) {
        if (Date.now() > until) assert.fail(`waited ${ms} ms for ${n} events; got ${events().length}: ${text}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      return events();
    },
    close: () => ac.abort(),
  };
}

/**
 * The server and the browser a console test file shares. The console page is asked for once
 * first: from source the client is bundled on that first request, which must not fall inside a
 * measurement or a test's timeout.
 */
export async function startConsole(opts?: Parameters<typeof startTestServer>[0], chooseKeys = true): Promise<{ s: TestServer; browser: Browser }> {
  const s = await startTestServer(opts);
  assert.equal((await fetch(`${s.us}/app`)).status, 200);
  // Each address acts as its region's Administrator, chosen once as a user would (issue 40).
  const keys = chooseKeys ? { [new URL(s.us).origin]: 'acme-admin-key', [new URL(s.eu).origin]: 'globex-admin-key' } : {};
  return { s, browser: await launch(keys) };
}

/** Closes what a console test file started, browser first; what never started is skipped. */
export async function stopConsole(...started: ({ close(): Promise<void> } | undefined)[]): Promise<void> {
  for (const x of started) await x?.close();
}

/**
 * A tab closed when the test ends, passed or failed: a tab left open keeps its event streams, and
 * Chromium's six connections per host run out. WFE_SHOT_ON_END=1 keeps a screenshot of each
 * tab's last state in test-artifacts/.
 */
export async function tabFor(browser: Browser, t: { after(fn: () => Promise<void>): void }) {
  const page = await browser.tab();
  t.after(async () => {
    if (process.env.WFE_SHOT_ON_END) await page.screenshot({ path: join(ROOT, 'test-artifacts', `end-${Date.now()}.png`), fullPage: true }).catch(() => {});
    await page.close();
  });
  return page;
}
