// The wfe container image started by Testcontainers, then spoken to over HTTP (README "Container").
// WFE_IMAGE names the image (default wfe:latest: `podman build --format docker -t wfe .` at the top level).
// With podman: `podman system service --time=0 unix:///tmp/podman.sock &`, then
// DOCKER_HOST=unix:///tmp/podman.sock TESTCONTAINERS_RYUK_DISABLED=true npm test
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { GenericContainer, Wait } from 'testcontainers';

const IMAGE = process.env.WFE_IMAGE ?? 'wfe:latest';
const KEY = { 'X-API-KEY': 'acme-member-key' };
let container;
let us;

before(async () => {
  container = await new GenericContainer(IMAGE)
    .withExposedPorts(8787, 8788)
    // The health route, asked from the test's side through the mapped port.
    .withWaitStrategy(Wait.forHttp('/_emulator/health', 8787).forStatusCode(200))
    .withStartupTimeout(60_000)
    .start();
  us = `http://${container.getHost()}:${container.getMappedPort(8787)}`;
});

after(async () => {
  await container?.stop();
});

test('GET /v3/auth/test answers for a demo key through the mapped port', async () => {
  const r = await fetch(`${us}/v3/auth/test`, { headers: KEY });
  assert.equal(r.status, 200);
  const body = await r.json();
  assert.equal(body.teamName, 'Acme Corp');
  assert.equal(body.region, 'US');
});

test('a checklist written through the container is read back', async () => {
  const made = await fetch(`${us}/v3/checklists`, {
    method: 'POST',
    headers: { ...KEY, 'Content-Type': 'application/json' },
    body: JSON.stringify({ templateKey: '20000000-0000-4000-8000-000000000002', name: 'Testcontainers expenses' }),
  });
  assert.equal(made.status, 201);
  const { key } = await made.json();
  const read = await fetch(`${us}/v3/checklists/${key}`, { headers: KEY });
  assert.equal(read.status, 200);
  assert.equal((await read.json()).name, 'Testcontainers expenses');
});
