// Helpers for the spine tests: the REST call that matches a tool call, raw HTTP,
// and the CLI as a child process.
import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { pathParams, type Operation } from '../../src/operations/define';
import { fromSource, PATIENCE_MS, ROOT } from './server';

/** The REST request equivalent to calling `op`'s tool with `args` (EMULATOR.md: same names). */
export function restCallFor(op: Operation, args: Record<string, unknown>): { method: string; path: string; body?: unknown } {
  const pnames = pathParams(op.path);
  const qnames = op.query ?? [];
  let path = op.path;
  for (const n of pnames) path = path.replace(`:${n}`, encodeURIComponent(String(args[n])));
  const qs = new URLSearchParams();
  for (const n of qnames) if (args[n] !== undefined) qs.set(n, String(args[n]));
  let body: unknown;
  if (op.bodyAs) body = args[op.bodyAs];
  else {
    const rest = Object.fromEntries(Object.entries(args).filter(([k]) => !pnames.includes(k) && !qnames.includes(k) && k !== 'idempotencyKey'));
    if (Object.keys(rest).length > 0) body = rest;
  }
  const q = qs.toString();
  return { method: op.method, path: q ? `${path}?${q}` : path, body };
}

/** Sends raw bytes to a server and returns what came back before the socket closed (every caller asks the server to close it). */
export function rawHttp(base: string, data: string, timeoutMs = PATIENCE_MS): Promise<{ status: number; head: string; body: string }> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const sock = connect(Number(u.port), u.hostname, () => sock.write(data));
    let text = '';
    sock.setEncoding('utf8');
    sock.on('data', (c) => (text += c));
    sock.on('error', reject);
    const timer = setTimeout(() => sock.destroy(), timeoutMs);
    sock.on('close', () => {
      clearTimeout(timer);
      const i = text.indexOf('\r\n\r\n');
      const head = i < 0 ? text : text.slice(0, i);
      let body = i < 0 ? '' : text.slice(i + 4);
      if (/transfer-encoding: chunked/i.test(head)) body = dechunk(body);
      resolve({ status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? 0), head, body });
    });
  });
}

function dechunk(s: string): string {
  let out = '';
  for (;;) {
    const nl = s.indexOf('\r\n');
    if (nl < 0) return out;
    const n = parseInt(s.slice(0, nl), 16);
    if (!n) return out;
    out += s.slice(nl + 2, nl + 2 + n);
    s = s.slice(nl + 2 + n + 2);
  }
}

export interface CliRun {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves when stdout contains `text`; rejects when the process ends without it (or after `timeoutMs`, a hang guard). */
  waitFor(text: string | RegExp, timeoutMs?: number): Promise<string>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** `wfe <args>` from source: node --import tsx src/cli.ts with WFE_CLI=1. */
export function runCli(args: string[], env: Record<string, string | undefined> = {}): CliRun {
  const childEnv: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...process.env, WFE_CLI: '1', ...env })) if (v !== undefined && !(k.startsWith('WFE_') && !(k in env) && k !== 'WFE_CLI')) childEnv[k] = v;
  const child = spawn(process.execPath, fromSource(args), { cwd: ROOT, env: childEnv, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  const waiters: (() => void)[] = [];
  child.stdout!.on('data', (c) => {
    out += c;
    waiters.forEach((w) => w());
  });
  child.stderr!.on('data', (c) => (err += c));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  const closed = new Promise<void>((resolve) => child.on('close', () => resolve()));
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    waitFor: (text, timeoutMs = PATIENCE_MS) =>
      new Promise((resolve, reject) => {
        const found = () => (typeof text === 'string' ? out.includes(text) : text.test(out));
        const check = () => {
          if (found()) {
            clearTimeout(timer);
            resolve(out);
          }
        };
        const timer = setTimeout(() => reject(new Error(`no ${text} within ${timeoutMs} ms; stdout: ${out}; stderr: ${err}`)), timeoutMs);
        waiters.push(check);
        // 'close' comes after the last output is read: what the process printed before it ended counts.
        void closed.then(() => {
          clearTimeout(timer);
          if (found()) resolve(out);
          else reject(new Error(`exited before ${text}; stdout: ${out}; stderr: ${err}`));
        });
        check();
      }),
  };
}

/**
 * What a `wfe serve` child printed up to the end of its banner (`until`, by default the line
 * naming Ctrl+C). The banner is the readiness signal: no clock is involved, a process that ends
 * first rejects, and PATIENCE_MS only guards against a hang (its timer is cleared either way).
 */
export function bannerOf(child: ChildProcess, until: string | RegExp = 'Ctrl+C'): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const done = () => (typeof until === 'string' ? out.includes(until) : until.test(out));
    const finish = (e?: Error) => {
      clearTimeout(guard);
      child.stdout!.off('data', onOut);
      child.stderr?.off('data', onErr);
      child.off('close', onClose);
      if (e) reject(e);
      else resolve(out);
    };
    const onOut = (d: Buffer | string) => {
      out += d;
      if (done()) finish();
    };
    const onErr = (d: Buffer | string) => (err += d);
    const onClose = (code: number | null) => finish(new Error(`exited with ${code} before its banner; stdout: ${out}; stderr: ${err}`));
    const guard = setTimeout(() => finish(new Error(`no banner within ${PATIENCE_MS} ms; stdout: ${out}; stderr: ${err}`)), PATIENCE_MS);
    child.stdout!.on('data', onOut);
    child.stderr?.on('data', onErr);
    child.once('close', onClose);
  });
}
