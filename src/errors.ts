// One error class for every refusal (spec v3 7). Transports convert it once:
// REST into the v3 envelope, MCP into an isError tool result with the same body.
import { z } from 'zod';
import { lazy } from './lazy';
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extras: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const validationError = (message: string, field?: string, extras: Record<string, unknown> = {}) =>
  new ApiError(400, 'VALIDATION_ERROR', message, field === undefined ? extras : { field, ...extras });
export const forbidden = (message: string) => new ApiError(403, 'FORBIDDEN', message);
export const notFound = (code: string, message: string) => new ApiError(404, code, message);
export const conflict = (message: string) => new ApiError(409, 'CONFLICT', message);
export const actsAsWorkspace = () =>
  new ApiError(
    403,
    'API_KEY_ACTS_AS_WORKSPACE',
    'This route is about a person and the API key acts as the workspace. Use a key that acts as a member.',
  );

export interface ErrorBody {
  error: { code: string; message: string; requestId: string; [extra: string]: unknown };
}

/** One violation of a template document (spec v3 2.5), as 422 TEMPLATE_INVALID lists them. */
const violationShape = lazy(() => z.strictObject({
  path: z.string().describe('JSONPath into the document sent, e.g. $.tasks[2].fields[0].regex.'),
  code: z.string().describe('What is wrong (docs/validation-codes.md); branch on this.'),
  message: z.string().describe('What is wrong, for people.'),
  hint: z.string().optional().describe('How to fix it, when there is a hint.'),
  severity: z.enum(['error', 'warning']).describe('Only errors refuse a document.'),
}));

/**
 * The envelope errorBody writes, as a schema: the OpenAPI error responses and the MCP
 * output schemas are derived from it, and the contract self-check holds refusals to it.
 */
export const errorEnvelope = (codes?: readonly string[], details: z.ZodRawShape = {}) =>
  z.strictObject({
    error: z.strictObject({
      code: codes && codes.length ? z.enum(codes as [string, ...string[]]).describe('Branch on this.') : z.string().describe('Branch on this.'),
      message: z.string().describe('What went wrong, for people.'),
      requestId: z.string().describe('The X-Request-Id of the request.'),
      field: z.string().optional().describe('The parameter, property or header at fault (400 VALIDATION_ERROR).'),
      url: z.string().optional().describe('421 WRONG_REGION: the same request on the right address.'),
      retryAfterSeconds: z.number().int().optional().describe('429: seconds until the budget window ends.'),
      violations: z.array(violationShape()).optional().describe('422 TEMPLATE_INVALID: every violation, in document order.'),
      regexMessage: z.string().optional().describe("A Short Text answer refused by the field's regex: the template's message for it."),
      // What an operation's refusals add (its `refusalDetails`, src/contract/refusals.ts).
      ...details,
    }),
  });

export function errorBody(err: ApiError, requestId: string): ErrorBody {
  return { error: { code: err.code, message: err.message, requestId, ...err.extras } };
}

/** Seconds a client is told to wait when another process held the database's write lock too long. */
export const BUSY_RETRY_SECONDS = 1;

/** SQLite's "database is locked": another process held the write lock past the busy timeout. */
export const isBusy = (e: unknown): boolean => typeof e === 'object' && e !== null && /^SQLITE_(BUSY|LOCKED)/.test(String((e as { code?: unknown }).code));

export const busyError = () =>
  new ApiError(
    503,
    'DATABASE_BUSY',
    'Another process sharing the database file held its write lock longer than the wait allowed (docs/reliability.md); nothing was written. Retry after the Retry-After seconds.',
    {},
    { 'Retry-After': String(BUSY_RETRY_SECONDS) },
  );

/**
 * The storage under the database failing (docs/reliability.md 10): not a bug, an answer. Each
 * is 503 with Retry-After and a code of its own; SQLite rolled the write back, so nothing was
 * written, and the next write after the cause is gone succeeds.
 */
export const STORAGE_REFUSALS = {
  /** SQLITE_FULL: the disk (or the file's max_page_count) is full. */
  STORAGE_FULL: { retry: 30, message: 'The disk holding the database is full; nothing was written. Free space and retry after the Retry-After seconds.' },
  /** SQLITE_READONLY*: the file or its directory was made read-only, or moved, under the server. */
  STORAGE_READ_ONLY: { retry: 60, message: 'The database file cannot be written (it was made read-only or moved under the server); nothing was written. Make it writable again (or restart) and retry.' },
  /** SQLITE_IOERR*: the operating system failed a read or write of the file. */
  STORAGE_IO_ERROR: { retry: 5, message: 'The operating system failed to read or write the database file (an I/O error); nothing was written. Retry after the Retry-After seconds; if it persists, check the disk.' },
} as const;
export type StorageCode = keyof typeof STORAGE_REFUSALS;

/** The storage refusal for a SQLite error, or undefined when it is something else. */
export function storageCode(e: unknown): StorageCode | undefined {
  if (typeof e !== 'object' || e === null) return undefined;
  const code = String((e as { code?: unknown }).code);
  if (code === 'SQLITE_FULL') return 'STORAGE_FULL';
  if (code.startsWith('SQLITE_READONLY')) return 'STORAGE_READ_ONLY';
  if (code.startsWith('SQLITE_IOERR')) return 'STORAGE_IO_ERROR';
  return undefined;
}

export const storageError = (code: StorageCode) => new ApiError(503, code, STORAGE_REFUSALS[code].message, {}, { 'Retry-After': String(STORAGE_REFUSALS[code].retry) });

/** A failure of what is under the emulator (a lock held by another process, the disk): its 503, or undefined. */
export function infraError(err: unknown): ApiError | undefined {
  if (isBusy(err)) return busyError();
  const storage = storageCode(err);
  return storage ? storageError(storage) : undefined;
}

/** Anything that is not an ApiError is a bug: answered 500 in the envelope, never a crash. */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  return infraError(err) ?? new ApiError(500, 'INTERNAL_ERROR', 'The emulator failed to handle this request. This is a bug in the emulator.');
}
