// Issue 40 "The bundle is sent uncompressed": the console's script and stylesheet are sent
// brotli or gzip as the request's Accept-Encoding allows (node:zlib, each made once per bundle
// hash), with Vary, an ETag and the immutable cache header; no coding asked, none sent.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { startTestServer, type TestServer } from './helpers/server';
import { chooseEncoding } from '../src/console/compress';

let s: TestServer;
let js: string;
let css: string;

before(async () => {
  s = await startTestServer();
  const html = await (await fetch(`${s.us}/app`)).text();
  js = /src="(\/app\/_\/app\.[0-9a-f]{12}\.js)"/.exec(html)![1];
  css = /href="(\/app\/_\/app\.[0-9a-f]{12}\.css)"/.exec(html)![1];
});

after(() => s.close());

/** A raw GET (node's fetch would decode the body): status, headers, the bytes as sent. */
function raw(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('issue 40: Accept-Encoding chooses the coding (brotli first, q=0 refuses, * stands for the rest)', () => {
  assert.equal(chooseEncoding(null), 'identity');
  assert.equal(chooseEncoding(''), 'identity');
  assert.equal(chooseEncoding('gzip, deflate, br, zstd'), 'br');
  assert.equal(chooseEncoding('gzip'), 'gzip');
  assert.equal(chooseEncoding('GZIP;q=0.5'), 'gzip');
  assert.equal(chooseEncoding('br;q=0, gzip'), 'gzip');
  assert.equal(chooseEncoding('br;q=0.2, gzip;q=0.8'), 'gzip');
  assert.equal(chooseEncoding('*'), 'br');
  assert.equal(chooseEncoding('*;q=0'), 'identity');
  assert.equal(chooseEncoding('identity'), 'identity');
  assert.equal(chooseEncoding('x-gzip'), 'gzip');
  assert.equal(chooseEncoding(';;, ,q=,br;q=abc'), 'identity');
});

test('issue 40: the bundle is sent brotli or gzip as asked, decodes to the plain bytes, with Vary, ETag and the immutable cache header', async () => {
  const plain = await raw(s.us + js);
  assert.equal(plain.status, 200);
  assert.equal(plain.headers['content-encoding'], undefined);
  assert.equal(plain.headers['vary'], 'Accept-Encoding');
  assert.match(String(plain.headers['cache-control']), /immutable/);
  assert.equal(Number(plain.headers['content-length']), plain.body.length);

  const br = await raw(s.us + js, { 'Accept-Encoding': 'gzip, deflate, br' });
  assert.equal(br.headers['content-encoding'], 'br');
  assert.equal(br.headers['vary'], 'Accept-Encoding');
  assert.match(String(br.headers['cache-control']), /immutable/);
  assert.equal(Number(br.headers['content-length']), br.body.length);
  assert.deepEqual(brotliDecompressSync(br.body), plain.body);

  const gz = await raw(s.us + js, { 'Accept-Encoding': 'gzip' });
  assert.equal(gz.headers['content-encoding'], 'gzip');
  assert.deepEqual(gunzipSync(gz.body), plain.body);
  assert.ok(br.body.length < plain.body.length / 3, `brotli ${br.body.length} B of ${plain.body.length} B`);
  assert.ok(gz.body.length < plain.body.length / 2.5, `gzip ${gz.body.length} B of ${plain.body.length} B`);
  // The same bytes on the second ask: made once per hash.
  assert.deepEqual((await raw(s.us + js, { 'Accept-Encoding': 'br' })).body, br.body);
  console.log(`console bundle: ${plain.body.length} B plain, ${gz.body.length} B gzip, ${br.body.length} B brotli`);

  const styles = await raw(s.eu + css, { 'Accept-Encoding': 'br' });
  assert.equal(styles.status, 200);
  assert.equal(styles.headers['content-encoding'], 'br');
  assert.match(String(styles.headers['content-type']), /^text\/css/);

  // A browser revalidating with the ETag gets 304 and no body; a different coding's ETag does not match.
  const etag = String(br.headers['etag']);
  assert.match(etag, /^"[0-9a-f]{12}-js-br"$/);
  const again = await raw(s.us + js, { 'Accept-Encoding': 'br', 'If-None-Match': etag });
  assert.equal(again.status, 304);
  assert.equal(again.body.length, 0);
  assert.equal((await raw(s.us + js, { 'Accept-Encoding': 'gzip', 'If-None-Match': etag })).status, 200);
  // HEAD: the headers of the GET, no body.
  const head = await raw(s.us + js, { 'Accept-Encoding': 'br' }, 'HEAD');
  assert.equal(head.status, 200);
  assert.equal(head.headers['content-encoding'], 'br');
  assert.equal(head.body.length, 0);
});

test('issue 40: a stale hash gets today\'s file, compressed, never cached and without an ETag', async () => {
  const stale = await raw(`${s.us}/app/_/app.000000000000.js`, { 'Accept-Encoding': 'gzip' });
  assert.equal(stale.status, 200);
  assert.equal(stale.headers['cache-control'], 'no-store');
  assert.equal(stale.headers['etag'], undefined);
  assert.equal(stale.headers['content-encoding'], 'gzip');
  assert.ok(gunzipSync(stale.body).length > 1000);
});
