// The node fast path (src/transports/http/fast-path.ts) copies three regexes from
// @hono/node-server's internals, so that what it serves is exactly what the adapter would have
// taken as it is. The copies are pinned here: an adapter that changes them fails this test.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ADAPTER_SOURCES, DOT_SEGMENT, PLAIN_HOST, PLAIN_TARGET } from '../src/transports/http/fast-path';

const dist = dirname(require.resolve('@hono/node-server'));

/** The regex literal the adapter's file assigns to `name`, as written. */
function adapterRegex(file: string, name: string): string {
  const m = new RegExp(`const ${name} = (/.*/[a-z]*);\\s*$`, 'm').exec(readFileSync(join(dist, file), 'utf8'));
  assert.ok(m, `${file} no longer declares ${name}: the fast path's copy must be made again`);
  return m[1];
}
const asRegExp = (literal: string) => {
  const end = literal.lastIndexOf('/');
  return new RegExp(literal.slice(1, end), literal.slice(end + 1));
};

for (const file of ['index.mjs', 'index.cjs']) {
  test(`the adapter's ${file} still holds the regexes the fast path copied`, () => {
    for (const [name, source] of Object.entries(ADAPTER_SOURCES)) assert.equal(adapterRegex(file, name), source, `${name} changed in @hono/node-server`);
  });
}

test('the fast path takes no request target the adapter would not take as it is', () => {
  const url = asRegExp(ADAPTER_SOURCES.reValidRequestUrl);
  let taken = 0;
  for (let c = 0; c < 256; c++) {
    const target = `/v3/checklists/x${String.fromCharCode(c)}y`;
    if (PLAIN_TARGET.test(target)) {
      taken++;
      assert.ok(url.test(target), `the fast path takes ${JSON.stringify(target)}, which the adapter rewrites`);
    }
  }
  assert.ok(taken > 60, 'the fast path takes the ordinary characters of a path');
  assert.equal(DOT_SEGMENT.source, asRegExp(ADAPTER_SOURCES.reDotSegment).source);
  assert.equal(PLAIN_HOST.source, asRegExp(ADAPTER_SOURCES.reValidHost).source);
});
