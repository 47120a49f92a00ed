// Helpers for the spine tests: the REST call that matches a tool call, raw HTTP,
// and the CLI as a child process.
import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { join } from 'node:path';
import { pathParams, type Operation } from '../../src/operations/define';
import { ROOT } from './server';

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

/** Sends raw bytes to a server and returns what came back before the socket closed. */
export function rawHttp(base: string, data: string, timeoutMs = 3000): Promise<{ status: number; head: string; body: string }> {
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
  /** Resolves when stdout contains `text`. */
  waitFor(text: string | RegExp, timeoutMs?: number): Promise<string>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** `wfe <args>` from source: node --import tsx src/cli.ts with WFE_CLI=1. */
export function runCli(args: string[], env: Record<string, string | undefined> = {}): CliRun {
  const childEnv: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...process.env, WFE_CLI: '1', ...env })) if (v !== undefined && !(k.startsWith('WFE_') && !(k in env) && k !== 'WFE_CLI')) childEnv[k] = v;
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src', 'cli.ts'), ...args], { cwd: ROOT, env: childEnv, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  const waiters: (() => void)[] = [];
  child.stdout!.on('data', (c) => {
    out += c;
    waiters.forEach((w) => w());
  });
  child.stderr!.on('data', (c) => (err += c));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    waitFor: (text, timeoutMs = 15_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (typeof text === 'string' ? out.includes(text) : text.test(out)) {
            clearTimeout(timer);
            resolve(out);
          }
        };
        const timer = setTimeout(() => reject(new Error(`timed out waiting for ${text}; stdout: ${out}; stderr: ${err}`)), timeoutMs);
        waiters.push(check);
        void exited.then(() => setTimeout(() => reject(new Error(`exited before ${text}; stdout: ${out}; stderr: ${err}`)), 50));
        check();
      }),
  };
}
