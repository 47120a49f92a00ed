// `wfe listen` (like `stripe listen`): starts a local receiver, subscribes it
// through the v3 API with the given key, event(s) and scope, prints each event
// as it arrives (verifying the signature when a secret is given), and
// unsubscribes on exit. Works against any running emulator (or the service).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { timingSafeEqual } from 'node:crypto';
import type { Command } from 'commander';
import { Option } from 'commander';
import type { sign as signFn } from './sender';
import { EVENT_TYPES } from '../domain/webhooks/events';

export interface ListenOptions {
  url: string;
  key: string;
  events: string[];
  scope: string;
  secret?: string;
  host: string;
  port: number;
  out: (s: string) => void;
  err: (s: string) => void;
}

function parseScope(s: string): { type: string; key?: string } {
  const [type, key] = s.split(':', 2);
  return key ? { type, key } : { type };
}

export async function listen(o: ListenOptions): Promise<{ close(): Promise<void>; url: string; subscriptions: string[] }> {
  // Loaded here, not at start-up: `wfe --help` and `wfe serve` need none of the delivery code.
  const sign: typeof signFn = (await import('./sender')).sign;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const event = String(req.headers['svc-event'] ?? '?');
      const sig = req.headers['svc-signature'];
      let check = '';
      if (o.secret) {
        const want = Buffer.from(sign(o.secret, body));
        const got = Buffer.from(typeof sig === 'string' ? sig : '');
        check = want.length === got.length && timingSafeEqual(want, got) ? ' signature ok' : ' SIGNATURE MISMATCH';
      }
      o.out(`--> ${event} ${new Date().toISOString()}${check}\n${body}\n`);
      res.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, () => resolve());
  });
  const target = `http://${o.host}:${(server.address() as AddressInfo).port}/`;
  const subscriptions: string[] = [];
  const api = async (method: string, path: string, body?: unknown) => {
    const r = await fetch(o.url.replace(/\/+$/, '') + path, {
      method,
      headers: { 'X-API-KEY': o.key, ...(body ? { 'Content-Type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await r.text();
    return { status: r.status, body: text ? JSON.parse(text) : undefined };
  };
  const close = async () => {
    for (const id of subscriptions.splice(0)) {
      const r = await api('DELETE', `/v3/webhooks/${id}`).catch(() => ({ status: 0 }));
      o.err(r.status === 204 ? `Unsubscribed ${id}\n` : `Could not unsubscribe ${id} (${r.status})\n`);
    }
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections?.();
    });
  };
  try {
    for (const eventType of o.events) {
      const scope = parseScope(o.scope);
      const r = await api('POST', '/v3/webhooks', { eventType, targetUrl: target, scope, ...(o.secret ? { secret: o.secret } : {}) });
      if (r.status !== 201) throw new Error(`subscribing to ${eventType} failed: ${r.status} ${JSON.stringify(r.body)}`);
      subscriptions.push(r.body.id);
      o.err(`Subscribed ${r.body.id}: ${eventType} (${scope.type}${scope.key ? ' ' + scope.key : ''})\n`);
    }
  } catch (e) {
    await close();
    throw e;
  }
  o.err(`Ready. Receiving at ${target}; Ctrl+C to unsubscribe and stop.\n`);
  return { close, url: target, subscriptions };
}

export function addListenCommand(program: Command): void {
  const env = process.env;
  program
    .command('listen')
    .description('Subscribe a local receiver to webhook events and print them as they arrive; unsubscribes on exit.')
    .addOption(new Option('--url <base>', 'base URL of the emulator region (or the service)').default(env.WFE_URL ?? `http://127.0.0.1:${env.WFE_PORT_US ?? 8787}`))
    .addOption(new Option('--key <key>', 'API key (Administrator or workspace); default SVC_API_KEY'))
    .addOption(new Option('--event <type...>', `event(s): ${EVENT_TYPES.join(', ')}`).default(['task_completed']))
    .addOption(new Option('--scope <Type[:key]>', 'Workspace, Template:<key>, Task:<key> or Field:<key>').default('Workspace'))
    .addOption(new Option('--secret <secret>', 'subscribe with a secret and verify SVC-Signature'))
    .addOption(new Option('--host <host>', 'address the receiver binds').default('127.0.0.1'))
    .addOption(new Option('--port <port>', 'receiver port (0 = any free port)').default('0'))
    .action(async (opts) => {
      const key = opts.key ?? env.SVC_API_KEY;
      if (!key) throw new Error('an API key is needed: --key or SVC_API_KEY.');
      const l = await listen({
        url: opts.url,
        key,
        events: opts.event,
        scope: opts.scope,
        secret: opts.secret,
        host: opts.host,
        port: Number(opts.port),
        out: (s) => process.stdout.write(s),
        err: (s) => process.stderr.write(s),
      });
      const stop = async () => {
        await l.close();
        process.exit(0);
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
}

/** `wfe serve --forward-events <url>`: the option is read by the webhook install through WFE_FORWARD_EVENTS. */
export function addForwardOption(program: Command): void {
  const serve = program.commands.find((c) => c.name() === 'serve');
  if (!serve) return;
  serve.addOption(new Option('--forward-events <url>', 'emulator only: send every event of every workspace to this URL without subscribing'));
  serve.hook('preAction', (cmd) => {
    const v = cmd.opts().forwardEvents as string | undefined;
    if (v) process.env.WFE_FORWARD_EVENTS = v;
  });
}
