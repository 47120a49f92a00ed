// Crash-safety helpers (docs/reliability.md): a real `wfe serve --db FILE`
// child process, killed with SIGKILL while clients write, then restarted.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fromSource, PATIENCE_MS, ROOT } from './server';

export interface Child {
  proc: ChildProcess;
  us: string;
  eu: string;
  stderr: string[];
  exited: Promise<number | null>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Starts `wfe serve` from source on the given ports and waits until it answers. */
export async function startChild(db: string, portUs: number, portEu: number, extra: string[] = []): Promise<Child> {
  const proc = spawn(
    process.execPath,
    fromSource(['serve', '--db', db, '--port-us', String(portUs), '--port-eu', String(portEu), '--standard-budget', '100000000', '--cheap-budget', '100000000', '--quiet', ...extra]),
    { cwd: ROOT, env: { ...process.env, WFE_CLI: '1' }, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const stderr: string[] = [];
  proc.stderr!.on('data', (d: Buffer) => stderr.push(d.toString()));
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  const us = `http://127.0.0.1:${portUs}`;
  const until = Date.now() + PATIENCE_MS;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`wfe serve exited with ${proc.exitCode}: ${stderr.join('')}`);
    try {
      const r = await fetch(`${us}/v3/auth/test`, { headers: { 'X-API-KEY': 'acme-admin-key' } });
      if (r.status === 200) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > until) {
      proc.kill('SIGKILL');
      throw new Error(`wfe serve did not answer within ${PATIENCE_MS} ms: ${stderr.join('')}`);
    }
    await sleep(50);
  }
  return { proc, us, eu: `http://127.0.0.1:${portEu}`, stderr, exited };
}

export async function kill(child: Child): Promise<void> {
  child.proc.kill('SIGKILL');
  await child.exited;
}
