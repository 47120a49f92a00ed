// Reading legacy query parameters and JSON bodies. Names are matched
// case-insensitively, as the service's ASP.NET model binding does.
import { isGuid } from '../ids';
import { legacyError } from './define';

export const bad = (message: string) => legacyError(400, message);

/** A query parameter, trimmed; empty reads as absent. */
export function param(q: URLSearchParams, name: string): string | undefined {
  for (const [k, v] of q) if (k.toLowerCase() === name.toLowerCase()) return v.trim() === '' ? undefined : v.trim();
  return undefined;
}

/** A query parameter that must be a GUID when present (400 otherwise). */
export function guidParam(q: URLSearchParams, name: string): string | undefined {
  const v = param(q, name);
  if (v !== undefined && !isGuid(v)) throw bad(`${name} must be a GUID.`);
  return v;
}

/** The body as a JSON object, or 400. */
export function bodyObject(body: unknown): Record<string, unknown> {
  if (body === undefined) throw bad('A JSON object body is required.');
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw bad('The request body must be a JSON object.');
  return body as Record<string, unknown>;
}

/** A body property by case-insensitive name. */
export function prop(o: Record<string, unknown>, name: string): unknown {
  const k = Object.keys(o).find((x) => x.toLowerCase() === name.toLowerCase());
  return k === undefined ? undefined : o[k];
}
