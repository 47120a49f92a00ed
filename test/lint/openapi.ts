// npm run lint:openapi: the served OpenAPI documents (/v3/openapi.json and the control
// API's /_emulator/openapi.json), linted by Redocly (recommended) and Spectral
// (spectral:oas) with the configs beside this file; any error or warning fails. Also
// checks that openapi-typescript types no success body as unknown.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createEmulator } from '../../src/start';
import { openApiDocument } from '../../src/openapi';
import { controlOpenApi } from '../../src/control/openapi';
import { declaredControlRoutes } from '../../src/control/define';

const here = __dirname;
const bin = (name: string) => join(here, '..', '..', 'node_modules', '.bin', name);

const { emu, ext } = createEmulator({ log: () => {} });
const docs = { 'openapi.json': openApiDocument(emu.ops, emu.baseUrls), 'control-openapi.json': controlOpenApi(declaredControlRoutes(ext.routes).filter((r) => r.path !== '/_emulator/openapi.json'), emu.baseUrls) };
void emu.close();
// Written beside the configs: the Spectral override names this path (spectral.yaml).
const dir = join(here, 'out');
mkdirSync(dir, { recursive: true });

let failed = false;
const run = (what: string, cmd: string, args: string[]) => {
  const r = spawnSync(cmd, args, { encoding: 'utf8' });
  const out = `${r.stdout ?? ''}${r.stderr ?? ''}`;
  // Redocly exits 0 on warnings; a warning fails here all the same.
  if (r.status !== 0 || /You have \d+ warnings?/.test(out)) {
    failed = true;
    process.stdout.write(`${what}: FAILED\n${out}\n`);
  } else {
    process.stdout.write(`${what}: clean\n`);
  }
};

for (const [name, doc] of Object.entries(docs)) {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(doc, null, 2));
  process.stdout.write(`${name}:\n`);
  run('Redocly (recommended)', bin('redocly'), ['lint', file, '--config', join(here, 'redocly.yaml'), '--max-problems', '200']);
  run('Spectral (spectral:oas)', bin('spectral'), ['lint', file, '--ruleset', join(here, 'spectral.yaml'), '--fail-severity', 'warn']);

  // openapi-typescript: no success body typed as unknown.
  const types = join(dir, 'openapi.d.ts');
  execFileSync(bin('openapi-typescript'), [file, '-o', types], { stdio: 'ignore' });
  const text = readFileSync(types, 'utf8');
  // Only response bodies count: a JSON Merge Patch request body is any JSON by design.
  let unknownBodies = 0;
  let inResponses = false;
  for (const line of text.split('\n')) {
    if (/^ {8}responses: \{/.test(line)) inResponses = true;
    else if (/^ {8}\S/.test(line)) inResponses = false;
    if (inResponses && line.includes('"application/json": unknown')) unknownBodies++;
  }
  process.stdout.write(`openapi-typescript: ${unknownBodies} response bodies typed as unknown\n`);
  if (unknownBodies > 0) failed = true;
}
process.exit(failed ? 1 : 0);
