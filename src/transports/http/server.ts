// node:http at the edge: @hono/node-server's getRequestListener turns
// IncomingMessage into a web Request (measured ~3x a hand-written adapter).
import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { AsyncLocalStorage } from 'node:async_hooks';
import type { AddressInfo, Socket } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import type { Emulator } from '../../emulator';
import type { Region } from '../../context';
import { createFetch, type AppExtensions } from './app';
import { errorResponse, requestIdFrom } from './respond';
import { validationError } from '../../errors';

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
        // The adapter refuses some request targets before our fetch runs (a
        // backslash in the path, an invalid Host): a client error, not a 500.
        errorHandler: (err: unknown) => {
          const incoming = current.getStore();
          const id = incoming?.headers['x-request-id'];
          const requestId = requestIdFrom(typeof id === 'string' ? id : null);
          const refused = err instanceof Error && err.name === 'RequestError' ? validationError(`The request target is not valid: ${err.message}.`) : err;
          return errorResponse(refused, requestId, {}, emu.log);
        },
      },
    );
    const current = new AsyncLocalStorage<IncomingMessage>();
    // Slow-client guard: a request must arrive whole within these limits; idle
    // connections are checked every second (node's default is every 30 s).
    const headersTimeout = Number(process.env.WFE_HEADERS_TIMEOUT_MS) || 20_000;
    const server = createServer({ maxHeaderSize: 32 * 1024, connectionsCheckingInterval: Math.min(1_000, headersTimeout) }, (req: IncomingMessage, res: ServerResponse) => current.run(req, () => (listener as (a: IncomingMessage, b: ServerResponse) => unknown)(req, res)));
    server.headersTimeout = headersTimeout;
    server.requestTimeout = Math.max(headersTimeout, Number(process.env.WFE_REQUEST_TIMEOUT_MS) || 60_000);
    server.keepAliveTimeout = 5_000;
    server.on('clientError', (err, socket) => answerClientError(err, socket as Socket));
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

/**
 * Requests node's parser refuses before any handler runs (headers over
 * maxHeaderSize, bytes not allowed in a header, a slow client cut off by
 * headersTimeout): answered in the v3 envelope with an X-Request-Id, like every
 * other refusal, instead of node's bare 400/431 (docs/reliability.md).
 */
export function answerClientError(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || !socket.writable || (socket as Socket & { _httpMessage?: unknown })._httpMessage) {
    socket.destroy();
    return;
  }
  const [status, code, message] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'REQUEST_HEADERS_TOO_LARGE', 'The request line and headers are larger than the limit of 32 KB.']
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'REQUEST_TIMEOUT', 'The request did not arrive in time.']
        : [400, 'VALIDATION_ERROR', 'The request is not valid HTTP/1.1 (for example a header holds a character HTTP does not allow).'];
  const requestId = requestIdFrom(null);
  const body = JSON.stringify({ error: { code, message, requestId } });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
  );
}
