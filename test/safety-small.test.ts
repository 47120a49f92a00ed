// The smaller safety points of docs/security.md: a download is named by a base name only
// (never a path a browser could save elsewhere), and a file given as a fixture that is not
// one is named in the error without its content.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, KEYS, DEMO } from './helpers/server';
import { F, T, newChecklist, taskPath } from './helpers/tasks';
import { runCli } from './helpers/spine';

test('4.3 file downloads: filename= holds the base name of the stored name (no "/", "\\\\" or ".." reaches the browser)', async () => {
  const s = await startTestServer();
  try {
    const c = await newChecklist(s, { template: DEMO.expense });
    const files = taskPath(c, T.submitReceipts, `/fields/${F.receipts}/files`);
    const cases: [string, string][] = [
      ['../../etc/passwd', 'passwd'],
      ['..\\..\\boot.ini', 'boot.ini'],
      ['a/b/receipt.pdf', 'receipt.pdf'],
      ['..', 'download'],
      ['dir/', 'download'],
      ['plain.txt', 'plain.txt'],
    ];
    for (const [stored, expected] of cases) {
      const up = await s.api(KEYS.member, 'POST', files, { name: stored, contentType: 'text/plain', data: Buffer.from('x').toString('base64') });
      assert.equal(up.status, 201, up.text);
      const dl = await fetch(up.body.url);
      assert.equal(dl.status, 200);
      const cd = dl.headers.get('content-disposition')!;
      assert.equal(cd, `attachment; filename="${expected}"; filename*=UTF-8''${encodeURIComponent(expected)}`, stored);
      assert.doesNotMatch(cd, /[/\\]|\.\.\//);
      await dl.arrayBuffer();
    }
  } finally {
    await s.close();
  }
});

test('--fixture naming a file that is not a fixture: the error names the file and quotes none of its content', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'wfe-notfixture-'));
  try {
    const secret = join(dir, 'shadow');
    writeFileSync(secret, 'root:$6$SECRETHASHvalue:19000:0:99999:7:::\nada:$6$OTHERSECRET:19000:0:99999:7:::\n');
    for (const args of [['serve', '--port-us', '0', '--port-eu', '0', '--fixture', secret], ['mcp', '--fixture', secret]]) {
      const r = runCli(args, { SVC_API_KEY: KEYS.admin });
      r.child.stdin?.end();
      const { code } = await r.exited;
      assert.notEqual(code, 0, args[0]);
      const all = r.stdout() + r.stderr();
      assert.ok(all.includes(secret), `${args[0]}: the file is named: ${all}`);
      assert.match(all, /not valid JSON/);
      for (const piece of ['root', 'SECRET', '$6$', '19000', 'ada:']) assert.ok(!all.includes(piece), `${args[0]}: ${piece} leaked: ${all}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
