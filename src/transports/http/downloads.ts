// GET /files/{token}: the HTTP side of a file download (the domain finds the file:
// src/domain/tasks/stored-file.ts). Served as an attachment with a content type that
// a browser will not run (docs/tasks.md).
import type { RouteSpec } from './route-table';
import { errorResponse } from '../web/respond';
import { ApiError } from '../../errors';
import { fileByToken } from '../../domain/tasks/stored-file';

/** Types a browser could execute or render as a page are served as bytes. */
const ACTIVE = /^(text\/html|application\/xhtml\+xml|image\/svg\+xml|text\/xml|application\/xml|text\/javascript|application\/javascript|application\/ecmascript|text\/ecmascript|multipart\/)/i;

export function safeContentType(stored: string): string {
  const t = stored.trim().toLowerCase();
  if (!/^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/.test(t) || ACTIVE.test(t)) return 'application/octet-stream';
  return t;
}

/** The last path segment of a stored name: a download never names a directory (`../x`, `a/b`, `C:\\x`). */
export function baseName(name: string): string {
  const base = name.replace(/^.*[\\/]/, '').trim();
  return base === '' || base === '.' || base === '..' ? 'download' : base;
}

export function contentDisposition(stored: string): string {
  const name = baseName(stored);
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** GET (and HEAD) /files/{token}: a route of the one table, with its own 405. */
export const fileDownloadRoute: RouteSpec = {
  method: 'GET',
  head: true,
  path: '/files/:token',
  regex: /^\/files\/(?<token>[0-9a-f]{16,128})\/?$/,
  family: 'files',
  refuseMethod: (method, _path, _allowed, info) =>
    errorResponse(new ApiError(405, 'METHOD_NOT_ALLOWED', `${method} is not allowed on a file download. Allowed: GET.`, {}, { Allow: 'GET' }), info.requestId, {}),
  handler: (req, { emu, info, params }) => {
    const f = fileByToken(emu.db, params.token, info.region);
    if (!f) {
      return errorResponse(new ApiError(404, 'FILE_NOT_FOUND', 'No file is stored at this address (it may have been removed).'), info.requestId, {});
    }
    return new Response(req.method === 'HEAD' ? null : new Uint8Array(f.data), {
      status: 200,
      headers: {
        'Content-Type': safeContentType(f.contentType),
        'Content-Disposition': contentDisposition(f.name),
        'Content-Length': String(f.data.length),
        'X-Content-Type-Options': 'nosniff',
        'Cache-Control': 'private, no-store',
        'X-Request-Id': info.requestId,
      },
    });
  },
};
