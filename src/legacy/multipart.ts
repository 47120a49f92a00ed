// multipart/form-data for the legacy CSV import (legacy spec 4.8), parsed with busboy.
// The whole body is already in memory (the router reads it), so busboy runs to the end
// synchronously: the handler stays synchronous and inside its one transaction.
import busboy from 'busboy';
import { legacyError } from './define';

export interface FormData {
  fields: Record<string, string>;
  file?: { field: string; fileName: string; bytes: Buffer };
}

/**
 * Parses a buffered multipart body; a body busboy cannot read is 400. The file is kept whole
 * (the body, already under the request limit, bounds it), so a refusal over `maxFile` can name
 * the file's own size rather than where a cut-off stopped counting.
 */
export function parseMultipart(body: Buffer, contentType: string, maxFile: number): FormData {
  let bb: busboy.Busboy;
  const room = Math.max(body.length, maxFile) + 65536;
  try {
    bb = busboy({ headers: { 'content-type': contentType }, limits: { fileSize: room, files: 5, fields: 50 }, highWaterMark: room, fileHwm: room, defParamCharset: 'utf8' });
  } catch (e) {
    throw legacyError(400, `The request body is not multipart/form-data: ${(e as Error).message}.`);
  }
  const out: FormData = { fields: {} };
  const streams: { field: string; fileName: string; stream: NodeJS.ReadableStream & { read(): Buffer | null } }[] = [];
  let failure: Error | undefined;
  bb.on('field', (name, value) => {
    out.fields[name.toLowerCase()] = value;
  });
  bb.on('file', (name, stream, info) => {
    // A truncated form errors the file stream after end() returns: without a listener that is an uncaught exception.
    stream.on('error', () => {});
    streams.push({ field: name.toLowerCase(), fileName: info.filename ?? '', stream: stream as never });
  });
  bb.on('error', (e) => {
    failure = e as Error;
  });
  try {
    bb.write(body);
    bb.end();
  } catch (e) {
    failure = e as Error;
  }
  if (failure) throw legacyError(400, `The multipart body could not be read: ${failure.message}.`);
  // busboy reports a truncated form only after end() returns (asynchronously): check the closing delimiter here.
  const m = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  const boundary = m ? (m[1] ?? m[2]) : undefined;
  if (boundary && !body.subarray(Math.max(0, body.length - boundary.length - 16)).toString('latin1').trimEnd().endsWith(`--${boundary}--`)) {
    throw legacyError(400, 'The multipart body could not be read: it ends before its closing boundary.');
  }
  for (const s of streams) {
    const chunks: Buffer[] = [];
    for (let c = s.stream.read(); c !== null; c = s.stream.read()) chunks.push(Buffer.isBuffer(c) ? c : Buffer.from(c));
    if (s.field === 'file' && !out.file) out.file = { field: s.field, fileName: s.fileName, bytes: Buffer.concat(chunks) };
  }
  return out;
}
