// Build step of the single executable (build-sea.mjs): runs the bundle as the launcher
// will (same wrapper text, same file name), starts `wfe serve`, answers a first request,
// then writes V8's code cache of the script. Taken after the run, the cache holds the
// functions start-up and a first answer compiled, not only the top level.
//   node build-sea-cache.cjs <bundle> <better_sqlite3.node> <out> <wrap head> <wrap tail>
'use strict';
const { readFileSync, writeFileSync } = require('node:fs');
const vm = require('node:vm');

const [bundle, addon, out, head, tail] = process.argv.slice(2);
const script = new vm.Script(head + readFileSync(bundle, 'utf8') + tail, { filename: 'wfe.cjs' });

// Inside the executable the addon is a SEA asset: the same answer here.
const sea = {
  isSea: () => true,
  getRawAsset: () => {
    const b = readFileSync(addon);
    return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength);
  },
};
const seaRequire = (id) => (id === 'node:sea' || id === 'sea' ? sea : require(id));

let printed = '';
const write = process.stdout.write.bind(process.stdout);
process.stdout.write = (chunk, ...rest) => {
  printed += String(chunk);
  return typeof rest[rest.length - 1] === 'function' ? (rest[rest.length - 1](), true) : true;
};
process.argv = [process.execPath, 'wfe', 'serve', '--port-us', '0', '--port-eu', '0'];
const mod = { exports: {} };
script.runInThisContext()(mod.exports, seaRequire, mod, 'wfe.cjs', '.');

const started = Date.now();
const timer = setInterval(async () => {
  const m = /US\s+REST (http:\/\/\S+)\/v3/.exec(printed);
  if (!m) {
    if (Date.now() - started > 30_000) {
      process.stderr.write(`sea-cache: the emulator did not start: ${printed}\n`);
      process.exit(1);
    }
    return;
  }
  clearInterval(timer);
  const headers = { 'X-API-KEY': 'acme-admin-key' };
  for (const path of ['/v3/auth/test', '/v3/checklists/30000000-0000-4000-8000-000000000001/tasks/21000000-0000-4000-8000-000000000106']) {
    const r = await fetch(m[1] + path, { headers });
    await r.arrayBuffer();
    if (r.status !== 200) {
      process.stderr.write(`sea-cache: ${path} answered ${r.status}\n`);
      process.exit(1);
    }
  }
  writeFileSync(out, script.createCachedData());
  process.stdout.write = write;
  process.exit(0);
}, 20);
