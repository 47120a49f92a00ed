// Reads a JSON request body with a size limit, answering over-limit bodies with
// the envelope rather than a dropped connection.
import { ApiError, validationError } from '../../errors';

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
  const text = await readBodyText(req, limit);
  if (text.trim() === '') return undefined;
  const type = req.headers.get('content-type');
  if (!anyContentType && type !== null && !JSON_CONTENT.test(type)) {
    throw validationError('Invalid request body: send JSON with Content-Type: application/json.');
  }
  try {
    return JSON.parse(text);
  } catch {
    throw validationError('Invalid request body: it is not valid JSON.');
  }
}
