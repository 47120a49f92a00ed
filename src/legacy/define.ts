// A legacy v1/v2 route (legacy spec 4): declared once in src/legacy/routes/<area>.ts
// and listed in src/legacy/routes/index.ts, like the v3 operation table.
import type { Ctx } from '../context';
import { ApiError } from '../errors';
import { LEGACY_CODE } from '../transports/web/respond';

export interface LegacyRequest {
  query: URLSearchParams;
  /** Parsed JSON body (undefined when none). */
  body: unknown;
  headers: Headers;
  /** 1 or 2, from X-API-VERSION (legacy spec 9). */
  version: 1 | 2;
  /** The Content-Type header, or null. */
  contentType: string | null;
  /** The body's bytes as sent (within the size limit): multipart uploads read these. */
  rawBody: Buffer;
  /** Path parameters of a route whose path has `:name` segments (e.g. /api/data-sets/:dataSetId), decoded. */
  params?: Record<string, string>;
}

export interface LegacyRoute {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Path matched case-insensitively (e.g. /api/web-hook/subscribe); a `:name` segment matches one segment and lands in `req.params`. */
  path: string;
  /** Needs X-API-VERSION: 2.0 (legacy spec 9). */
  v2?: boolean;
  /** Administrator or workspace key only, refused before any lookup (spec v3 5.6 for webhook routes). */
  admin?: boolean;
  /** A refusal made before the body is read, from the path parameters (a write to a system Data Set: legacy 3, 7). */
  refuseFirst?: (db: Ctx['db'], params: Record<string, string>) => void;
  /** Answers plain data (200) or a Reply (another status, a body of text or bytes, headers); throws ApiError for refusals. Writes run in one transaction. */
  handler: (ctx: Ctx, req: LegacyRequest) => unknown;
}

export const defineLegacyRoute = (r: LegacyRoute): LegacyRoute => r;

/**
 * A refusal worded by a legacy route: the one error type, ApiError, written `{ error: <message>, ...extras }`
 * by the legacy boundary (legacy spec 7; transports/web/respond.ts chooses the shape).
 */
export const legacyError = (status: number, message: string, extras: Record<string, unknown> = {}) => new ApiError(status, LEGACY_CODE, message, extras);
