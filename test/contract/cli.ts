// `npm run fuzz:contract [-- --runs N --seed S]`: the property-based run against the served
// document (test/contract/property-run.ts) on a fresh server, with a summary of failures and of
// the positive-data rejections by kind (docs/contract.md lists them with their reasons).
import { parseArgs } from 'node:util';
import { startTestServer, KEYS } from '../helpers/server';
import { loadFastCheck, propertyRun } from './property-run';

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '40' }, seed: { type: 'string', default: '39' }, only: { type: 'string' } } });
  // fast-check is a devDependency; loaded here so the rest of the suite does not need it.
  const fc = loadFastCheck();
  if (!fc) throw new Error('fast-check is not installed (npm install: it is a devDependency)');
  const s = await startTestServer({ standardBudget: 1e9, cheapBudget: 1e9, webhooks: { timeoutMs: 300, maxAttempts: 1, retryBaseMs: 60_000 }, upgrades: { delayMs: 1e12 } });
  try {
    const doc = (await s.api(null, 'GET', '/v3/openapi.json')).body;
    const only = values.only ? new RegExp(values.only) : undefined;
    const started = Date.now();
    const r = await propertyRun({
      fc, doc, base: s.us, key: KEYS.admin, runs: Number(values.runs), seed: Number(values.seed),
      only: only ? (id) => only.test(id) : undefined,
      between: () => s.emu.fixtureImage.reset(s.emu.db, s.emu.fixture, s.emu.clock.now()),
    });
    const fiveXx = r.failures.filter((f) => f.check === '5xx').length;
    const schema = r.failures.filter((f) => f.check === 'schema' || f.check === 'status').length;
    console.log(`${r.operations} operations, ${r.requests} requests in ${Math.round((Date.now() - started) / 1000)} s; by status ${JSON.stringify(r.byStatus)}`);
    console.log(`failures: ${r.failures.length} (5xx ${fiveXx}, response schema or status ${schema})`);
    for (const f of r.failures.slice(0, 40)) console.log(`  ${f.operation} ${f.check}: ${f.detail}\n    ${f.request}`);
    console.log('positive-data rejections by kind:');
    for (const [kind, v] of Object.entries(r.rejections).sort((a, b) => b[1].count - a[1].count)) console.log(`  ${String(v.count).padStart(4)} ${kind}: ${v.message.slice(0, 160)}`);
    process.exitCode = r.failures.length ? 1 : 0;
  } finally {
    await s.close();
  }
}
void main();
