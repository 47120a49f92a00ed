// First content of the console's checklist page (issue 40: "median at most 250 ms with a fresh
// browser on an idle machine"), and what the bundle costs on the wire.
//
//   node --import tsx bench/console-first-content.ts [loads=15]
//
// A fresh browser: a new browser context per load (empty HTTP cache, no cookies, so no console
// session and no first data in the shell), with the key already chosen (as the question on a
// first visit leaves it), on the Jane Doe checklist page. The figure is the page's own mark
// (performance.mark('wfe-first-content'), navigation start to the first API content on screen).
// A warm browser: reloads in one context (script from cache, first data in the shell).
// Needs Chromium (WFE_CHROMIUM or /usr/bin/chromium) and playwright-core. Prints the load average,
// since the machine's other work moves these figures more than anything in the page.
import { loadavg } from 'node:os';
import { chromium } from 'playwright-core';
import { start } from '../src/start';

const LOADS = Number(process.argv[2] ?? 15);
const CHROMIUM = process.env.WFE_CHROMIUM ?? '/usr/bin/chromium';
const CHECKLIST = '30000000-0000-4000-8000-000000000001';

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function main() {
  const server = await start({ portUs: 0, portEu: 0, log: () => {} });
  const us = server.urls.US;
  await fetch(`${us}/app`); // from source the client is bundled on the first page: not measured
  await new Promise((r) => setTimeout(r, 500)); // and compressed just after (src/console/bundle.ts)
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-background-networking'] });
  const url = `${us}/app/checklists/${CHECKLIST}`;
  const seed = (k: { origin: string; key: string }) => {
    try {
      if (location.origin === k.origin) localStorage.setItem('wfe.console.key', k.key);
    } catch {
      /* about:blank */
    }
  };
  const firstContent = async (page: import('playwright-core').Page) => {
    await page.waitForFunction(() => performance.getEntriesByName('wfe-first-content').length > 0, undefined, { timeout: 30_000 });
    return page.evaluate(() => performance.getEntriesByName('wfe-first-content')[0].startTime);
  };
  const fresh: number[] = [];
  let wire: { transfer: number; body: number; decoded: number } | undefined;
  const load0 = loadavg()[0];
  for (let i = 0; i < LOADS; i++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addInitScript(seed, { origin: new URL(us).origin, key: 'acme-admin-key' });
    const page = await context.newPage();
    await page.goto(url);
    fresh.push(await firstContent(page));
    wire ??= await page.evaluate(() => {
      const js = performance.getEntriesByType('resource').find((e) => /app\.[0-9a-f]{12}\.js$/.test(e.name)) as PerformanceResourceTiming;
      return { transfer: js.transferSize, body: js.encodedBodySize, decoded: js.decodedBodySize };
    });
    await context.close();
  }
  const warm: number[] = [];
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addInitScript(seed, { origin: new URL(us).origin, key: 'acme-admin-key' });
  const page = await context.newPage();
  await page.goto(url);
  await firstContent(page);
  for (let i = 0; i < LOADS; i++) {
    await page.reload();
    warm.push(await firstContent(page));
  }
  await browser.close();
  await server.close();
  const fmt = (xs: number[]) => `median ${Math.round(median(xs))} ms (min ${Math.round(Math.min(...xs))}, max ${Math.round(Math.max(...xs))}; ${xs.length} loads)`;
  console.log(`load average ${load0.toFixed(1)} before, ${loadavg()[0].toFixed(1)} after; node ${process.version}`);
  console.log(`fresh browser (new context each load): ${fmt(fresh)}`);
  console.log(`warm browser (reloads, first data in the shell): ${fmt(warm)}`);
  if (wire) console.log(`bundle on the wire: ${wire.body} B encoded (${wire.transfer} B with headers), ${wire.decoded} B decoded`);
}

void main().catch((e) => {
  console.error(e);
  process.exit(1);
});
