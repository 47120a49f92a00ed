// A raw HTTP/1.1 client over a socket: sends exactly the bytes given, so the
// campaign can send what fetch refuses to (CR/LF and non-ASCII bytes in
// headers, un-normalised paths with `..` and encoded slashes, duplicate headers,
// bytes that are not UTF-8).
import { connect } from 'node:net';

export interface RawAnswer {
  status: number;
  headers: Record<string, string[]>;
  body: Buffer;
}

export function header(a: RawAnswer, name: string): string | undefined {
  return a.headers[name.toLowerCase()]?.[0];
}

export async function rawRequest(host: string, port: number, head: string | Buffer, body?: Buffer, timeoutMs = 15_000): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const sock = connect({ host, port });
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      sock.destroy();
      reject(new Error(`raw request timed out after ${timeoutMs} ms`));
    }, timeoutMs);
    sock.on('connect', () => {
      sock.write(head);
      if (body) sock.write(body);
    });
    sock.on('data', (d) => chunks.push(d));
    sock.on('error', (e) => {
      // A reset after the whole answer arrived is fine (server closed while we wrote a big body).
      clearTimeout(timer);
      const buf = Buffer.concat(chunks);
      if (buf.includes('\r\n\r\n')) resolve(parse(buf));
      else reject(e);
    });
    sock.on('close', () => {
      clearTimeout(timer);
      const buf = Buffer.concat(chunks);
      try {
        resolve(parse(buf));
      } catch (e) {
        reject(e);
      }
    });
  });
}

function parse(buf: Buffer): RawAnswer {
  const end = buf.indexOf('\r\n\r\n');
  if (end < 0) throw new Error(`no HTTP answer (got ${buf.length} bytes: ${JSON.stringify(buf.subarray(0, 80).toString('latin1'))})`);
  const lines = buf.subarray(0, end).toString('latin1').split('\r\n');
  const m = /^HTTP\/1\.[01] (\d{3})/.exec(lines[0]);
  if (!m) throw new Error(`bad status line ${JSON.stringify(lines[0])}`);
  const headers: Record<string, string[]> = {};
  for (const l of lines.slice(1)) {
    const i = l.indexOf(':');
    const k = l.slice(0, i).trim().toLowerCase();
    (headers[k] ??= []).push(l.slice(i + 1).trim());
  }
  let body = buf.subarray(end + 4);
  if (headers['transfer-encoding']?.[0]?.toLowerCase() === 'chunked') body = dechunk(body);
  else if (headers['content-length']) body = body.subarray(0, Number(headers['content-length'][0]));
  return { status: Number(m[1]), headers, body };
}

function dechunk(b: Buffer): Buffer {
  const out: Buffer[] = [];
  let i = 0;
  for (;;) {
    const nl = b.indexOf('\r\n', i);
    if (nl < 0) break;
    const size = parseInt(b.subarray(i, nl).toString('latin1'), 16);
    if (!size) break;
    out.push(b.subarray(nl + 2, nl + 2 + size));
    i = nl + 2 + size + 2;
  }
  return Buffer.concat(out);
}

/** Builds a request head; header values are written byte for byte (latin1). */
export function rawHead(method: string, target: string, headers: [string, string][], bodyLength?: number): Buffer {
  const lines = [`${method} ${target} HTTP/1.1`, 'Host: 127.0.0.1', 'Connection: close', ...headers.map(([k, v]) => `${k}: ${v}`)];
  if (bodyLength !== undefined) lines.push(`Content-Length: ${bodyLength}`);
  return Buffer.from(lines.join('\r\n') + '\r\n\r\n', 'latin1');
}
