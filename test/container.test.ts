// The container image (EMULATOR.md "Container image", README "Container", docs/container.md).
// First the image's host rule, `--allow-host '*'` (its WFE_ALLOW_HOST), on a server from source:
// always run. Then the image itself with podman: run when podman and the image (WFE_IMAGE,
// default `wfe`) are present, else one skipped test saying why; WFE_REQUIRE_CONTAINER=1
// (.ci/container.sh) turns that skip into a failure.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { startTestServer, callTool, KEYS, ROOT } from './helpers/server';
import { runCli } from './helpers/spine';
import { freePort } from './helpers/crash';

/** A raw HTTP request, so Host can be anything (fetch sets it from the URL). */
function raw(base: string, path: string, headers: Record<string, string>, method = 'GET'): Promise<{ status: number; json: any }> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: u.hostname, port: u.port, method, path, headers, setHost: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        let json: unknown;
        try {
          json = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode!, json });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

test("--allow-host '*' (the image's WFE_ALLOW_HOST) admits names of one label and IP addresses, not dotted names; pages are own only on the address they were sent to", async () => {
  const s = await startTestServer({ allowHosts: ['*'] });
  try {
    const port = new URL(s.us).port;
    const host = async (h: string) => (await raw(s.us, '/v3/auth/test', { Host: h, 'X-API-KEY': KEYS.admin })).status;
    // A compose service, a container name, a network alias, Docker-in-Docker's `docker`; container and gateway addresses.
    for (const h of [`wfe:${port}`, 'wfe', `my_project-wfe-1:${port}`, 'docker:2375', `10.88.0.5:${port}`, '172.17.0.1:32768', `[fd00::5]:${port}`, 'localhost:32768']) {
      assert.equal(await host(h), 200, h);
    }
    // A rebinding page needs a name in public DNS: every name with a dot not given by name stays refused.
    for (const h of ['evil.example', `evil.example:${port}`, 'wfe.evil.example', 'wfe.']) {
      const r = await raw(s.us, '/v3/auth/test', { Host: h, 'X-API-KEY': KEYS.admin });
      assert.equal(r.status, 403, h);
      assert.equal(r.json.error.code, 'HOST_NOT_ALLOWED');
      assert.match(r.json.error.message, /with '\*': also names of one label and IP addresses/);
    }
    const origin = async (h: string, o: string) => {
      const r = await raw(s.us, '/_emulator/reset', { Host: h, Origin: o }, 'POST');
      return r.status === 403 ? r.json.error.code : r.status;
    };
    // The emulator's page on the very address the request went to: behind a port mapping (32768) or by service name.
    assert.equal(await origin('localhost:32768', 'http://localhost:32768'), 200);
    assert.equal(await origin(`wfe:${port}`, `http://wfe:${port}`), 200);
    assert.equal(await origin('10.88.0.5:8787', 'http://10.88.0.5:8787'), 200);
    // Any other page stays refused: another port, another name admitted by '*', https, null.
    for (const [h, o] of [
      ['localhost:32768', 'http://localhost:3000'],
      [`wfe:${port}`, `http://other:${port}`],
      [`wfe:${port}`, 'http://wfe:3000'],
      ['localhost:32768', 'https://localhost:32768'],
      [`wfe:${port}`, 'null'],
      [`wfe:${port}`, 'http://evil.example'],
    ]) {
      assert.equal(await origin(h, o), 'ORIGIN_NOT_ALLOWED', `${h} ${o}`);
    }
  } finally {
    await s.close();
  }
  // Without '*' a one-label name is refused, as before.
  const plain = await startTestServer();
  try {
    assert.equal((await raw(plain.us, '/v3/auth/test', { Host: 'wfe:8787', 'X-API-KEY': KEYS.admin })).status, 403);
  } finally {
    await plain.close();
  }
});

test("CLI: WFE_HOST=0.0.0.0 WFE_ALLOW_HOST='*' (the image's environment) serves one-label names, and the banner says so", async () => {
  const r = runCli(['serve', '--port-us', '0', '--port-eu', '0'], { WFE_HOST: '0.0.0.0', WFE_ALLOW_HOST: '*' });
  try {
    const banner = await r.waitFor("('*': also any name of one label and any IP address)", 60_000);
    const us = /US\s+REST (http:\/\/[^/\s]+)\/v3/.exec(banner)![1];
    assert.equal((await raw(us, '/v3/auth/test', { Host: 'wfe', 'X-API-KEY': KEYS.admin })).status, 200);
    assert.equal((await raw(us, '/v3/auth/test', { Host: 'wfe.example.test', 'X-API-KEY': KEYS.admin })).status, 403);
  } finally {
    r.child.kill('SIGTERM');
  }
  assert.equal((await r.exited).code, 0);
});

// ---- The image, with podman ----

const IMAGE = process.env.WFE_IMAGE ?? 'wfe';
const REQUIRE = /^(1|true|yes)$/i.test(process.env.WFE_REQUIRE_CONTAINER ?? '');
const HOW = 'install podman, `npm run build` and `podman build --format docker -t wfe .` (or run .ci/container.sh, which does all of it)';

interface Ran {
  code: number;
  out: string;
  err: string;
}

/** podman, with its log lines about systemd health-check timers dropped (no systemd on CI machines). */
function podman(args: string[], timeout = 120_000): Promise<Ran> {
  return new Promise((resolve) =>
    execFile('podman', args, { timeout, maxBuffer: 16 * 1024 * 1024 }, (e, out, err) =>
      resolve({
        code: e ? (typeof (e as { code?: unknown }).code === 'number' ? (e as { code: number }).code : 127) : 0,
        out: String(out ?? ''),
        err: String(err ?? '')
          .split('\n')
          .filter((l) => !/systemd connection|healthcheck timer|Removing timer/.test(l))
          .join('\n'),
      }),
    ),
  );
}

/** Why the image cannot be run here, or undefined when it can. */
async function unavailable(): Promise<string | undefined> {
  const v = await podman(['--version'], 30_000);
  if (v.code !== 0) return `container tests skipped: no podman on PATH; ${HOW}`;
  if ((await podman(['image', 'exists', IMAGE], 30_000)).code !== 0) return `container tests skipped: no image ${IMAGE} (WFE_IMAGE); ${HOW}`;
  const probe = await podman(['run', '--rm', IMAGE, '--version'], 60_000);
  if (probe.code !== 0 || !/^\d+\.\d+\.\d+/.test(probe.out)) return `container tests skipped: podman cannot run ${IMAGE} here: ${(probe.err.trim().split('\n')[0] || probe.out).slice(0, 200)}`;
  return undefined;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const unique = (what: string) => `wfe-test-${what}-${process.pid}-${Date.now().toString(36)}`;

/** `podman run -d` on free loopback ports; resolves when the image's own HEALTHCHECK passes. */
async function startImage(name: string, runArgs: string[], wfeArgs: string[] = []): Promise<{ us: string; eu: string }> {
  const [pu, pe] = [await freePort(), await freePort()];
  const r = await podman(['run', '-d', '--name', name, '-p', `127.0.0.1:${pu}:8787`, '-p', `127.0.0.1:${pe}:8788`, ...runArgs, IMAGE, ...wfeArgs]);
  assert.equal(r.code, 0, `podman run: ${r.err}`);
  await healthy(name);
  return { us: `http://127.0.0.1:${pu}`, eu: `http://127.0.0.1:${pe}` };
}

/** Waits until the HEALTHCHECK of the Containerfile, run by podman inside the container, passes (60 s at most). */
async function healthy(name: string): Promise<void> {
  for (let i = 0; ; i++) {
    if ((await podman(['healthcheck', 'run', name], 30_000)).code === 0) return;
    if (i >= 120) assert.fail(`${name} not healthy after 60 s: ${(await podman(['logs', name])).err}`);
    await sleep(500);
  }
}

/** `podman stop` (SIGTERM, the image's STOPSIGNAL; SIGKILL only after 10 s): its duration and wfe's exit code. */
async function stopImage(name: string): Promise<{ seconds: number; exitCode: number }> {
  const t = process.hrtime.bigint();
  const r = await podman(['stop', '-t', '10', name]);
  const seconds = Number(process.hrtime.bigint() - t) / 1e9;
  assert.equal(r.code, 0, `podman stop: ${r.err}`);
  const code = await podman(['inspect', name, '--format', '{{.State.ExitCode}}']);
  return { seconds, exitCode: Number(code.out.trim()) };
}

const remove = async (...names: string[]) => {
  for (const n of names) await podman(['rm', '-f', '-v', '-t', '0', n]);
};

test('the container image (podman)', async (t) => {
  const skip = await unavailable();
  if (skip && REQUIRE) assert.fail(`WFE_REQUIRE_CONTAINER is set: ${skip}`);
  if (skip) return t.skip(skip);
  await t.test('the image: healthy by its HEALTHCHECK, GET /v3/auth/test through the container on both regions, non-root wfe as PID 1, Host and Origin rules kept', async () => {
    const name = unique('run');
    try {
      const { us, eu } = await startImage(name, []);
      const auth = await fetch(`${us}/v3/auth/test`, { headers: { 'X-API-KEY': KEYS.admin } });
      assert.equal(auth.status, 200);
      const body = await auth.json();
      assert.equal(body.teamName, 'Acme Corp');
      assert.equal(body.region, 'US');
      const euAuth = await fetch(`${eu}/v3/auth/test`, { headers: { 'X-API-KEY': KEYS.globexAdmin } });
      assert.equal(euAuth.status, 200);
      assert.equal((await euAuth.json()).region, 'EU');
      // spec 5.1 and 7 (401 MISSING_API_KEY): no key, no entry, through the container too.
      const keyless = await fetch(`${us}/v3/auth/test`);
      assert.equal(keyless.status, 401);
      assert.equal((await keyless.json()).error.code, 'MISSING_API_KEY');
      const health = await fetch(`${us}/_emulator/health`);
      assert.equal((await health.json()).status, 'ok');

      const uid = await podman(['exec', name, 'id', '-u']);
      assert.equal(uid.out.trim(), '10001', 'runs as the image user 10001, not root');
      const pid1 = await podman(['exec', name, 'cat', '/proc/1/cmdline']);
      assert.deepEqual(pid1.out.split('\0').filter(Boolean), ['/usr/local/bin/wfe', 'serve'], 'wfe itself is PID 1 (the entrypoint execs it)');
      const status = await podman(['exec', name, 'cat', '/proc/1/status']);
      assert.match(status.out, /^Uid:\s+10001\s+10001\s+10001\s+10001$/m);

      // A published port and a service name are answered; a dotted name is not; nor is a foreign page.
      assert.equal((await raw(us, '/v3/auth/test', { Host: 'wfe:8787', 'X-API-KEY': KEYS.admin })).status, 200);
      const rebind = await raw(us, '/v3/auth/test', { Host: 'evil.example:8787', 'X-API-KEY': KEYS.admin });
      assert.equal(rebind.status, 403);
      assert.equal(rebind.json.error.code, 'HOST_NOT_ALLOWED');
      const page = await raw(us, '/_emulator/reset', { Host: new URL(us).host, Origin: 'http://evil.example' }, 'POST');
      assert.equal(page.status, 403);
      assert.equal(page.json.error.code, 'ORIGIN_NOT_ALLOWED');
    } finally {
      await remove(name);
    }
  });

  await t.test('the image: starts and is healthy with no network at all (it downloads nothing at start)', async () => {
    const name = unique('offline');
    try {
      assert.equal((await podman(['run', '-d', '--name', name, '--network', 'none', IMAGE, '--db', '/data/wfe.db'])).code, 0);
      await healthy(name);
      const health = await podman(['exec', name, 'bash', '-c', "exec 3<>/dev/tcp/127.0.0.1/8787 && printf 'GET /_emulator/health HTTP/1.0\\r\\n\\r\\n' >&3 && cat <&3"]);
      assert.match(health.out, /"status":"ok"/);
      assert.match(health.out, /"database":"file"/);
    } finally {
      await remove(name);
    }
  });

  await t.test('the image: its HEALTHCHECK sends WFE_ADMIN_TOKEN, passes with the control routes off, and fails when nothing answers', async () => {
    const [tok, off, dead] = [unique('token'), unique('noadmin'), unique('dead')];
    try {
      const { us } = await startImage(tok, ['-e', 'WFE_ADMIN_TOKEN=s3cret']);
      assert.equal((await fetch(`${us}/_emulator/health`)).status, 401, 'the token guards the health route');
      assert.equal((await fetch(`${us}/_emulator/health`, { headers: { Authorization: 'Bearer s3cret' } })).status, 200);
      const checked = await podman(['healthcheck', 'run', tok]);
      assert.equal(checked.code, 0);
      // --no-admin: the route is gone (404 in the envelope), the server is up.
      const closed = await startImage(off, [], ['--no-admin']);
      assert.equal((await fetch(`${closed.us}/_emulator/health`)).status, 404);
      // Nothing listening: the same check fails.
      assert.equal((await podman(['run', '-d', '--name', dead, '--entrypoint', 'sleep', IMAGE, '60'])).code, 0);
      const none = await podman(['healthcheck', 'run', dead]);
      assert.notEqual(none.code, 0);
      assert.match(none.out + none.err, /unhealthy/);
    } finally {
      await remove(tok, off, dead);
    }
  });

  await t.test('the image: another container on its network reaches it by a service alias and by its address (as compose does)', async () => {
    const [name, net] = [unique('svc'), unique('net')];
    try {
      // A network with DNS and an alias per service: what compose makes for a project.
      assert.equal((await podman(['network', 'create', net])).code, 0);
      await startImage(name, ['--network', net, '--network-alias', 'wfe-svc']);
      const ip = (await podman(['inspect', name, '--format', `{{(index .NetworkSettings.Networks "${net}").IPAddress}}`])).out.trim();
      assert.match(ip, /^\d+\.\d+\.\d+\.\d+$/, 'the container has an address on the network');
      // The image itself as the client (bash's /dev/tcp).
      const ask = (target: string, hostHeader: string) =>
        podman([
          'run', '--rm', '--network', net, '--entrypoint', 'bash', IMAGE, '-c',
          `exec 3<>/dev/tcp/${target}/8787 && printf 'GET /v3/auth/test HTTP/1.0\\r\\nHost: ${hostHeader}\\r\\nX-API-KEY: ${KEYS.admin}\\r\\n\\r\\n' >&3 && head -n 1 <&3`,
        ]);
      for (const [target, h] of [['wfe-svc', 'wfe-svc:8787'], [name, `${name}:8787`], [ip, `${ip}:8787`]]) {
        const r = await ask(target, h);
        assert.equal(r.code, 0, r.err);
        assert.match(r.out, /^HTTP\/1\.1 200 /, `${h}: ${r.out}`);
      }
      const dotted = await ask('wfe-svc', 'wfe.example.test:8787');
      assert.match(dotted.out, /^HTTP\/1\.1 403 /, 'a dotted name needs WFE_ALLOW_HOST to name it');
    } finally {
      await remove(name);
      await podman(['network', 'rm', '-f', net]);
    }
  });

  await t.test('the image: a write on the /data volume survives a restart and a new container; SIGTERM stops it in under 5 s with exit code 0', async () => {
    const [a, b, vol] = [unique('a'), unique('b'), unique('data')];
    try {
      assert.equal((await podman(['volume', 'create', vol])).code, 0);
      const first = await startImage(a, ['-v', `${vol}:/data`], ['--db', '/data/wfe.db']);
      const made = await fetch(`${first.us}/v3/checklists`, {
        method: 'POST',
        headers: { 'X-API-KEY': KEYS.member, 'Content-Type': 'application/json' },
        body: JSON.stringify({ templateKey: '20000000-0000-4000-8000-000000000002', name: 'Kept on the volume' }),
      });
      assert.equal(made.status, 201);
      const { key } = await made.json();
      const stopped = await stopImage(a);
      assert.equal(stopped.exitCode, 0, 'wfe exits 0 on SIGTERM (not 137: no SIGKILL was needed)');
      assert.ok(stopped.seconds < 5, `podman stop took ${stopped.seconds.toFixed(2)} s`);
      process.stdout.write(`# SIGTERM stop: ${stopped.seconds.toFixed(2)} s\n`);

      // The same container started again (podman start keeps its published ports).
      assert.equal((await podman(['start', a])).code, 0);
      await healthy(a);
      const again = await fetch(`${first.us}/v3/checklists/${key}`, { headers: { 'X-API-KEY': KEYS.member } });
      assert.equal(again.status, 200, 'the checklist is there after a restart');
      assert.equal((await stopImage(a)).exitCode, 0);

      // A new container on the same volume.
      const second = await startImage(b, ['-v', `${vol}:/data`], ['--db', '/data/wfe.db']);
      const read = await fetch(`${second.us}/v3/checklists/${key}`, { headers: { 'X-API-KEY': KEYS.member } });
      assert.equal(read.status, 200);
      assert.equal((await read.json()).name, 'Kept on the volume');
      const files = await podman(['exec', b, 'ls', '-n', '/data']);
      assert.match(files.out, /\s10001\s+10001\s+\d+ .* wfe\.db$/m, 'the database file belongs to the image user');
    } finally {
      await remove(a, b);
      await podman(['volume', 'rm', '-f', vol]);
    }
  });

  await t.test('the image under an init (--init: wfe is not PID 1, its parent is): healthy, and SIGTERM still stops it in under 5 s with exit code 0', async () => {
    const name = unique('init');
    try {
      await startImage(name, ['--init']);
      const ppid = await podman(['exec', name, 'sh', '-c', 'for p in /proc/[0-9]*; do [ "$(tr "\\0" " " < $p/cmdline 2>/dev/null)" = "/usr/local/bin/wfe serve " ] && awk \'/^PPid/{print $2}\' $p/status; done']);
      assert.equal(ppid.out.trim(), '1', 'wfe runs as the child of the init (PID 1)');
      const stopped = await stopImage(name);
      assert.equal(stopped.exitCode, 0);
      assert.ok(stopped.seconds < 5, `podman stop took ${stopped.seconds.toFixed(2)} s`);
    } finally {
      await remove(name);
    }
  });

  await t.test('the image: `wfe mcp` over stdio through `podman run -i` (a desktop agent\'s command), one tool call with the SDK client', async () => {
    const client = new Client({ name: 'container-smoke', version: '1.0.0' });
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
    await client.connect(new StdioClientTransport({ command: 'podman', args: ['run', '-i', '--rm', '-e', `SVC_API_KEY=${KEYS.member}`, IMAGE, 'mcp'], env, stderr: 'pipe' }));
    try {
      const r = await callTool(client, 'get_member', { memberId: 103 });
      assert.equal(r.isError, false);
      assert.equal(r.body.email, 'mia@acme.test');
    } finally {
      await client.close();
    }
  });

  await t.test('the image: a bad flag, an unwritable or read-only /data and a missing --db folder exit non-zero with a clear message', async () => {
    const bad = await podman(['run', '--rm', IMAGE, '--bogus']);
    assert.equal(bad.code, 1);
    assert.match(bad.err, /unknown option '--bogus'/);
    const port = await podman(['run', '--rm', IMAGE, '--port-us', '99999']);
    assert.equal(port.code, 1);
    assert.match(port.err, /a port is a number from 0 to 65535/);

    // A host folder owned by root, as a bind mount keeps it.
    const dir = mkdtempSync(join(tmpdir(), 'wfe-data-'));
    chmodSync(dir, 0o755);
    try {
      const locked = await podman(['run', '--rm', '-v', `${dir}:/data`, IMAGE, '--db', '/data/wfe.db']);
      assert.equal(locked.code, 1);
      assert.match(locked.err, /^wfe: --db \/data\/wfe\.db: the folder \/data is not writable by this container's user \(uid 10001; \/data belongs to uid \d+, mode 755\)/m);
      assert.match(locked.err, /named volume \(-v wfe-data:\/data\)/);
      const ro = await podman(['run', '--rm', '--user', '0', '-v', `${dir}:/data:ro`, IMAGE, '--db=/data/wfe.db']);
      assert.equal(ro.code, 1);
      assert.match(ro.err, /^wfe: --db \/data\/wfe\.db: the folder \/data is read-only in the container/m);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const missing = await podman(['run', '--rm', '-e', 'WFE_DB=/missing/wfe.db', IMAGE]);
    assert.equal(missing.code, 1);
    assert.match(missing.err, /^wfe: --db \/missing\/wfe\.db: the folder \/missing does not exist in the container/m);
  });

  await t.test('README "Container": the run block, as pasted (ports, names and volume made unique)', async () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Container'));
    const block = /```sh\n((?:(?!```)[\s\S])*podman run -d --name wfe[\s\S]*?)```/.exec(section)?.[1];
    assert.ok(block, 'README "Container" has the podman run block');
    const [pu, pe] = [await freePort(), await freePort()];
    const [name, vol] = [unique('readme'), unique('readme-data')];
    const script = block
      .replace(/--name wfe\b/g, `--name ${name}`)
      .replace(/podman stop wfe\b/g, `podman stop ${name}`)
      .replace(/\bwfe-data:/g, `${vol}:`)
      .replace(/-p 8787:8787/g, `-p 127.0.0.1:${pu}:8787`)
      .replace(/-p 8788:8788/g, `-p 127.0.0.1:${pe}:8788`)
      .replace(/127\.0\.0\.1:8787/g, `127.0.0.1:${pu}`)
      .replace(/ wfe --db /, ` ${IMAGE} --db `);
    try {
      const r = await new Promise<Ran>((resolve) =>
        execFile('bash', ['-e', '-c', script], { timeout: 120_000 }, (e, out, err) => resolve({ code: e ? 1 : 0, out: String(out), err: String(err) })),
      );
      assert.equal(r.code, 0, `${script}\n${r.err}`);
      assert.match(r.out, /"teamName":"Acme Corp"/);
      assert.equal((await podman(['inspect', name, '--format', '{{.State.ExitCode}}'])).out.trim(), '0');
    } finally {
      await remove(name);
      await podman(['volume', 'rm', '-f', vol]);
    }
  });
});
