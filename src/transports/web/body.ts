// Reads a JSON request body with a size limit, answering over-limit bodies with
// the envelope rather than a dropped connection.
import type { IncomingMessage } from 'node:http';
import { ApiError, validationError } from '../../errors';
import { builtin } from '../../lazy';

/** The body's bytes, refused with 413 in the envelope past `limit` (declared or streamed). */
export async function readBodyBytes(req: Request, limit: number, what = 'The request body'): Promise<Buffer> {
  const declared = req.headers.get('content-length');
  if (declared !== null && Number(declared) > limit) throw tooLarge(limit, what);
  if (!req.body) return Buffer.alloc(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw tooLarge(limit, what);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/**
 * Streams the body to `file`, never holding more than one chunk in memory: refused
 * with 413 past `limit` (declared or streamed), and `checkHead` sees the first
 * `headBytes` as soon as they arrive (or the whole body, when shorter) so a wrong
 * kind of body is refused at once instead of after the upload. Returns the size.
 */
export async function streamBodyToFile(req: Request, file: string, limit: number, what: string, headBytes: number, checkHead: (head: Buffer) => void): Promise<number> {
  const declared = req.headers.get('content-length');
  if (declared !== null && Number(declared) > limit) throw tooLarge(limit, what);
  // node:fs/promises is loaded by the first body spilled to a file, not by every start.
  const out = await builtin<typeof import('node:fs/promises')>('node:fs/promises').open(file, 'w');
  const reader = req.body?.getReader();
  let size = 0;
  let head: Buffer | undefined = Buffer.alloc(0);
  try {
    for (;;) {
      const { done, value } = reader ? await reader.read() : { done: true as const, value: undefined };
      if (done) break;
      size += value.byteLength;
      if (size > limit) throw tooLarge(limit, what);
      if (head) {
        head = Buffer.concat([head, value.subarray(0, headBytes - head.length)]);
        if (head.length >= headBytes) {
          checkHead(head);
          head = undefined;
        }
      }
      await out.write(value);
    }
    if (head) checkHead(head);
    return size;
  } catch (e) {
    await reader?.cancel().catch(() => {});
    throw e;
  } finally {
    await out.close();
  }
}

/** The same limit on node's own request (the /v3 fast path, server.ts): declared, then streamed. */
export function readNodeBody(req: IncomingMessage, limit: number, what = 'The request body'): Promise<Buffer> {
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) return Promise.reject(tooLarge(limit, what));
  if (req.readableEnded) return Promise.resolve(Buffer.alloc(0));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (err?: unknown) => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      if (err) reject(err);
      else resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
    };
    const onData = (c: Buffer) => {
      size += c.length;
      // Over the limit: stop buffering; node drains the rest once the answer is written.
      if (size > limit) done(tooLarge(limit, what));
      else chunks.push(c);
    };
    const onEnd = () => done();
    const onError = (e: Error) => done(e);
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}

export async function readBodyText(req: Request, limit: number): Promise<string> {
  return (await readBodyBytes(req, limit)).toString('utf8');
}

const tooLarge = (limit: number, what: string) =>
  new ApiError(413, 'PAYLOAD_TOO_LARGE', `${what} is larger than the limit of ${limit} bytes.`);

const JSON_CONTENT = /^(application\/(json|[\w.+-]+\+json)|text\/json)\s*(;|$)/i;

/**
 * Parses a JSON body (spec v3 4.1 rules 1 and 3). Empty body reads as undefined.
 * `anyContentType`: the control routes read JSON whatever the Content-Type says, so
 * curl's `-d` (form-encoded by default) works as the README pastes it.
 */
export async function readJson(req: Request, limit: number, anyContentType = false): Promise<unknown> {
  return parseJsonBody(await readBodyText(req, limit), req.headers.get('content-type'), anyContentType);
}

export async function readNodeJson(req: IncomingMessage, limit: number): Promise<unknown> {
  const ct = req.headers['content-type'];
  return parseJsonBody((await readNodeBody(req, limit)).toString('utf8'), ct === undefined ? null : ct, false);
}

/**
 * Whether a request declares a body (a length above zero, or chunked). Writes that take no body
 * (complete, clears) still refuse one that is not JSON (4.1 rule 3: "A body that is not valid JSON
 * gives 400"); GETs are left alone, so the read fast path never waits on a stream.
 */
export function declaresBody(contentLength: string | null | undefined, transferEncoding: string | null | undefined): boolean {
  return (contentLength != null && contentLength !== '0') || transferEncoding != null;
}

function parseJsonBody(text: string, type: string | null, anyContentType: boolean): unknown {
  if (text.trim() === '') return undefined;
  if (!anyContentType && type !== null && !JSON_CONTENT.test(type)) {
    throw validationError('Invalid request body: send JSON with Content-Type: application/json.');
  }
  try {
    return JSON.parse(text);
  } catch {
    throw validationError('Invalid request body: it is not valid JSON.');
  }
}
