// npm run fuzz -- [--seed N] [--count N] [--seconds N] [--round N] [--out FILE]
// The full run of docs/reliability.md: 100,000 requests, seed 1.
import { writeFileSync } from 'node:fs';
import { runCampaign, report } from './campaign';

function arg(name: string, dflt: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? process.argv[i + 1] : process.env[`FUZZ_${name.toUpperCase()}`];
  return v === undefined ? dflt : Number(v);
}

async function main() {
  const seed = arg('seed', 1);
  const count = arg('count', 100_000);
  const seconds = arg('seconds', 1800);
  const roundSize = arg('round', 5000);
  process.stderr.write(`fuzz: seed ${seed}, up to ${count} requests or ${seconds} s\n`);
  const r = await runCampaign({ seed, count, seconds, roundSize, progress: (l) => process.stderr.write(l + '\n') });
  const text = report(r);
  process.stdout.write(text + '\n');
  if (r.failures.length) {
    process.stdout.write('\nfirst failures:\n');
    for (const f of r.failures.slice(0, 30)) process.stdout.write(`- [${f.check}] ${f.target}: ${f.detail}\n    ${f.request}\n`);
  }
  const i = process.argv.indexOf('--out');
  if (i >= 0) writeFileSync(process.argv[i + 1], JSON.stringify(r, null, 2));
  process.exit(r.failures.length ? 1 : 0);
}

void main();
