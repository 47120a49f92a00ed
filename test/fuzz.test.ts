// The bad-input campaign, bounded for CI (docs/reliability.md has the full run:
// `npm run fuzz`). Seeded: FUZZ_SEED picks another reproducible run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCampaign, report } from './fuzz/campaign';
import { digest } from './fuzz/digest';
import { startTestServer, KEYS } from './helpers/server';
import { Emulator } from '../src/emulator';
import { legacyRoutes } from '../src/legacy/routes';

const seed = Number(process.env.FUZZ_SEED ?? 7);
const count = Number(process.env.FUZZ_CI_COUNT ?? 2500);

test('4.1, 7: bad input over every operation, tool and legacy route: no 5xx, no crash, envelope with requestId, refused writes change nothing', async () => {
  // No clock: the whole count runs however busy the machine is (timings belong to the bench).
  const r = await runCampaign({ seed, count, seconds: Infinity, roundSize: 1250 });
  const text = report(r);
  const detail = r.failures
    .slice(0, 10)
    .map((f) => `[${f.check}] ${f.target}: ${f.detail.slice(0, 300)}\n    ${f.request.slice(0, 300)}`)
    .join('\n');
  assert.equal(r.fiveXx, 0, `5xx answers (seed ${seed}):\n${detail}`);
  assert.equal(r.crashes, 0, `crashes (seed ${seed}):\n${detail}`);
  assert.equal(r.refusedWritesThatChangedData, 0, `refused writes that changed data (seed ${seed}):\n${detail}`);
  assert.equal(r.envelopeViolations, 0, `envelope or requestId violations (seed ${seed}):\n${detail}`);
  assert.equal(r.internalErrorsLogged, 0, `internal errors logged (seed ${seed}):\n${detail}`);
  assert.equal(r.failures.length, 0, detail);
  assert.ok(r.requests >= count, `only ${r.requests} of ${count} requests ran`);
  assert.ok(r.refusedWrites > 100, 'the campaign exercised refused writes');
  // Every operation, tool and legacy route was aimed at.
  const s = await startTestServer();
  try {
    for (const op of s.emu.ops) {
      assert.ok(r.perTarget[op.id], `operation ${op.id} was never tried\n${text}`);
      if (op.tool) assert.ok(r.perTarget[`mcp:${op.tool}`], `tool ${op.tool} was never tried`);
    }
    for (const lr of legacyRoutes) assert.ok(r.perTarget[`legacy:${lr.method} ${lr.path}`], `legacy route ${lr.method} ${lr.path} was never tried`);
  } finally {
    await s.close();
  }
});

test('the data digest sees a change made by a write and nothing else', async () => {
  const emu = new Emulator({ log: () => {} });
  try {
    const d0 = digest(emu.db);
    assert.equal(digest(emu.db), d0, 'stable');
    emu.db.prepare("UPDATE members SET first_name = 'Changed' WHERE id = 103").run();
    assert.notEqual(digest(emu.db), d0);
    emu.db.prepare("UPDATE members SET first_name = 'Mia' WHERE id = 103").run();
    assert.equal(digest(emu.db), d0);
    emu.db.prepare("INSERT INTO settings (name, value) VALUES ('x', 'y')").run();
    assert.equal(digest(emu.db), d0, 'settings (rate-budget counters) are left out');
  } finally {
    await emu.close();
  }
});

test('the campaign is reproducible: the same seed sends the same requests', async () => {
  // No time limit that can be reached: a campaign cut short by its clock (a loaded machine ran
  // 150 requests in more than 20 s) sends fewer requests, and the two would differ for that alone.
  const a = await runCampaign({ seed: 99, count: 150, seconds: 3600 });
  const b = await runCampaign({ seed: 99, count: 150, seconds: 3600 });
  assert.deepEqual(Object.keys(a.perTarget).sort(), Object.keys(b.perTarget).sort());
  assert.deepEqual(
    Object.fromEntries(Object.entries(a.perTarget).map(([k, v]) => [k, v.requests])),
    Object.fromEntries(Object.entries(b.perTarget).map(([k, v]) => [k, v.requests])),
  );
  assert.deepEqual(a.variants, b.variants);
  void KEYS;
});
