// node:http at the edge. A v3 operation is answered from node's own request and
// response (fast-path.ts); everything else (MCP over HTTP, control routes, legacy,
// downloads, 404/405, unusual request targets) goes through @hono/node-server's
// getRequestListener to the fetch-shaped core (app.ts).
// Requests node:http or the adapter cannot parse are still answered in the v3
// envelope (spec v3 4.1: never a dropped connection, never a bare 500).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { RequestError as HonoRequestError } from '@hono/node-server';
import type { Emulator } from '../../emulator';
import type { Region } from '../../context';
import { ApiError, validationError } from '../../errors';
import { buildRouteTable, createFetch, emptyExtensions, guardOf, type AppExtensions } from './app';
import { createNodeRest, writeParts } from './fast-path';
import { errorParts, errorResponse, httpText, isDropped, requestIdFrom } from '../web/respond';
import { addPort, edgePolicy, pathOfTarget, refusalParts } from './origin';
import { headerValue } from './call-info';

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

/** The host as written in a URL: a wildcard bind is reached at 127.0.0.1; IPv6 in brackets. */
export const hostForUrl = (host: string) => (host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host);

/** A request line or Host header the adapter cannot turn into a URL (e.g. `GET *`, `Host: a b`). */
function adapterError(err: unknown, RequestError: typeof HonoRequestError): unknown {
  if (err instanceof RequestError) return validationError(`Invalid request: ${err.message.toLowerCase()}.`);
  return err;
}

type NodeListener = (req: IncomingMessage, res: ServerResponse) => unknown;

/**
 * Requests node:http refuses before any handler runs (bad Content-Length,
 * garbage request line, oversized headers, a body that never arrives): answered
 * in the envelope on the raw socket, then the connection is closed.
 */
function clientErrorAnswer(err: NodeJS.ErrnoException & { bytesParsed?: number }, socket: Socket): void {
  if (!socket.writable || err.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const e =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? new ApiError(431, 'REQUEST_HEADERS_TOO_LARGE', 'The request headers are larger than the limit of 32 KiB.')
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? new ApiError(408, 'REQUEST_TIMEOUT', 'The request did not arrive in full in time (headers within 20 s, the whole request within 60 s).')
        : validationError('Invalid request: the HTTP request could not be parsed (check the request line, Content-Length and Transfer-Encoding).');
  socket.end(httpText(errorParts(e, requestIdFrom(null), {})));
}

export async function listen(emu: Emulator, opts: ListenOptions = {}): Promise<Running> {
  const host = opts.host ?? '127.0.0.1';
  const servers = {} as Record<Region, Server>;
  const urls = {} as Record<Region, string>;
  // The chain's guards (src/request-chain.ts: Host and Origin, docs/security.md) run here, before any route and the fast path;
  // this listener's addresses are the policy they check against (the ports join once bound).
  const policy = edgePolicy({ bound: host, allowHosts: emu.options.allowHosts, allowOrigins: emu.options.allowOrigins });
  const ext = opts.extensions ?? emptyExtensions();
  const guard = guardOf(ext.chain);
  for (const [region, port] of [['US', opts.portUs ?? 8787], ['EU', opts.portEu ?? 8788]] as const) {
    const table = buildRouteTable(emu, ext);
    const fetch = createFetch(emu, region, ext, table);
    const fastPath = createNodeRest(emu, region, table);
    // The adapter (and undici's Request and Response behind it) is loaded by the first request
    // the fetch path answers, not at start-up: a v3 call never needs it (measured: ~9% of start-up CPU).
    let listener: NodeListener | undefined;
    let loading: Promise<NodeListener> | undefined;
    const load = async (): Promise<NodeListener> => {
      const { getRequestListener, RequestError } = await import('@hono/node-server');
      return getRequestListener(
        // Headers are read from the IncomingMessage: touching req.headers makes the adapter's
        // lightweight Request build a full undici Request (measured: most of our per-request cost).
        (req: Request, env: { incoming: Pick<IncomingMessage, 'socket' | 'headers'> }) => {
          const faults = emu.faults.size > 0;
          const res = fetch(req, env.incoming.socket.remoteAddress ?? 'unknown', env.incoming.headers);
          // An injected drop (src/faults): close the connection instead of answering.
          return !faults ? res : res.then((r) => (isDropped(r) ? (env.incoming.socket.destroy(), r) : r));
        },
        {
          // HTTP/1.0 clients may send no Host; the emulator does not route by host.
          hostname: 'localhost',
          // The client's X-Request-Id is used here too (spec v3 4.1 rule 9): the request is kept per call.
          errorHandler: (err: unknown) => {
            const id = current?.headers['x-request-id'];
            return errorResponse(adapterError(err, RequestError), requestIdFrom(typeof id === 'string' ? id : null), {}, emu.log);
          },
        },
      ) as NodeListener;
    };
    // The request being constructed, for the adapter's error handler, which the adapter calls
    // synchronously when it cannot build a Request. A plain variable, not AsyncLocalStorage:
    // on Node 20 that turns on async hooks for every promise (measured ~25% of CPU).
    let current: IncomingMessage | undefined;
    // Slow-client guard: a request must arrive whole within these limits, and
    // connections are checked every second (node's default is every 30 s).
    // WFE_HEADERS_TIMEOUT_MS / WFE_REQUEST_TIMEOUT_MS shorten them (tests, docs/reliability.md).
    const headersTimeout = Number(process.env.WFE_HEADERS_TIMEOUT_MS) || 20_000;
    const server = createServer(
      { maxHeaderSize: 32 * 1024, requireHostHeader: false, connectionsCheckingInterval: Math.min(1_000, headersTimeout) },
      (req: IncomingMessage, res: ServerResponse) => {
        const refused = guard({ host: headerValue(req.headers, 'host'), origin: headerValue(req.headers, 'origin') }, policy);
        if (refused) {
          req.resume(); // the body is not read: drained so keep-alive goes on
          return writeParts(res, refusalParts(refused, pathOfTarget(req.url ?? ''), requestIdFrom(headerValue(req.headers, 'x-request-id'))));
        }
        if (fastPath(req, res)) return;
        const run = (l: NodeListener) => {
          current = req;
          try {
            return l(req, res);
          } finally {
            current = undefined;
          }
        };
        if (listener) return run(listener);
        loading ??= load();
        return loading.then((l) => run((listener = l)));
      },
    );
    server.headersTimeout = headersTimeout;
    server.requestTimeout = Math.max(headersTimeout, Number(process.env.WFE_REQUEST_TIMEOUT_MS) || 60_000);
    // Idle kept-alive sockets close after 65 s, not node's 5 s: a client that reuses a socket
    // just as the server closes it gets a reset on a POST it cannot retry (MCP's), and a busy
    // client (a test suite on a loaded machine) reached node's 5 s between two of its requests.
    server.keepAliveTimeout = 65_000;
    server.on('clientError', clientErrorAnswer);
    try {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => resolve());
      });
    } catch (e) {
      // The other region may already listen: a failed start holds no port.
      await closeAll(Object.values(servers));
      throw e;
    }
    servers[region] = server;
    addPort(policy, (server.address() as AddressInfo).port);
    urls[region] = `http://${hostForUrl(host)}:${(server.address() as AddressInfo).port}`;
  }
  emu.baseUrls.US = urls.US;
  emu.baseUrls.EU = urls.EU;
  return {
    servers,
    urls,
    close: () => closeAll(Object.values(servers)),
  };
}

const closeAll = (servers: Server[]): Promise<void> =>
  Promise.all(
    servers.map(
      (s) =>
        new Promise<void>((resolve) => {
          s.close(() => resolve());
          s.closeAllConnections?.();
        }),
    ),
  ).then(() => undefined);
