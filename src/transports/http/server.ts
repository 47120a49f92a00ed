// node:http at the edge: @hono/node-server's getRequestListener turns
// IncomingMessage into a web Request (measured ~3x a hand-written adapter).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import type { Emulator } from '../../emulator';
import type { Region } from '../../context';
import { createFetch, type AppExtensions } from './app';
import { errorResponse, requestIdFrom } from './respond';

export interface ListenOptions {
  host?: string;
  portUs?: number;
  portEu?: number;
  extensions?: AppExtensions;
}

export interface Running {
  servers: Record<Region, Server>;
  urls: Record<Region, string>;
  close(): Promise<void>;
}

const hostForUrl = (host: string) => (host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host);

export async function listen(emu: Emulator, opts: ListenOptions = {}): Promise<Running> {
  const host = opts.host ?? '127.0.0.1';
  const servers = {} as Record<Region, Server>;
  const urls = {} as Record<Region, string>;
  for (const [region, port] of [['US', opts.portUs ?? 8787], ['EU', opts.portEu ?? 8788]] as const) {
    const fetch = createFetch(emu, region, opts.extensions);
    const listener = getRequestListener(
      (req: Request, env: { incoming: { socket: { remoteAddress?: string } } }) => fetch(req, env.incoming.socket.remoteAddress ?? 'unknown'),
      {
        errorHandler: (err: unknown) => errorResponse(err, requestIdFrom(null), {}, emu.log),
      },
    );
    const server = createServer({ maxHeaderSize: 32 * 1024 }, listener as never);
    // Slow-client guard: a request must arrive whole within these limits.
    server.headersTimeout = 20_000;
    server.requestTimeout = 60_000;
    server.keepAliveTimeout = 5_000;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });
    servers[region] = server;
    urls[region] = `http://${hostForUrl(host)}:${(server.address() as AddressInfo).port}`;
  }
  emu.baseUrls.US = urls.US;
  emu.baseUrls.EU = urls.EU;
  return {
    servers,
    urls,
    close: () =>
      Promise.all(
        Object.values(servers).map(
          (s) =>
            new Promise<void>((resolve) => {
              s.close(() => resolve());
              s.closeAllConnections?.();
            }),
        ),
      ).then(() => undefined),
  };
}
