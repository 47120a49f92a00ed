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

const INT = /^[+-]?\d{1,10}$/;
const INT32_MAX = 2147483647;

/** A legacy integer (int32 in the service): a JSON integer or a string of digits; anything else is 400. */
/** An integer: a JSON integer or a string of digits, within int32 (docs/legacy.md "Parameters"). */
export function toInt(v: unknown, name: string): number {
  const n = typeof v === 'number' ? v : typeof v === 'string' && INT.test(v.trim()) ? Number(v.trim()) : NaN;
  if (!Number.isInteger(n) || Math.abs(n) > INT32_MAX) throw bad(`${name} must be an integer.`);
  return n;
}

/** A required integer query parameter. */
export function intParam(q: URLSearchParams, name: string): number {
  const v = param(q, name);
  if (v === undefined) throw bad(`${name} is required: an integer.`);
  return toInt(v, name);
}

/** An optional integer query parameter. */
export function optionalIntParam(q: URLSearchParams, name: string): number | undefined {
  const v = param(q, name);
  return v === undefined ? undefined : toInt(v, name);
}

/** A boolean query parameter (`true` or `false`, any case), `fallback` when absent; `required` refuses absence. */
export function boolParam(q: URLSearchParams, name: string, fallback?: boolean): boolean {
  const v = param(q, name);
  if (v === undefined) {
    if (fallback === undefined) throw bad(`${name} is required: true or false.`);
    return fallback;
  }
  if (/^true$/i.test(v)) return true;
  if (/^false$/i.test(v)) return false;
  throw bad(`${name} must be true or false.`);
}

/** A required GUID query parameter. */
export function requiredGuidParam(q: URLSearchParams, name: string): string {
  const v = guidParam(q, name);
  if (v === undefined) throw bad(`${name} is required: a GUID.`);
  return v;
}

/** A required integer body property. */
export function intProp(o: Record<string, unknown>, name: string): number {
  const v = prop(o, name);
  if (v === undefined || v === null || v === '') throw bad(`${name} is required: an integer.`);
  return toInt(v, name);
}

/** A required boolean body property (JSON true or false). */
export function boolProp(o: Record<string, unknown>, name: string): boolean {
  const v = prop(o, name);
  if (v === undefined || v === null) throw bad(`${name} is required: true or false.`);
  if (typeof v !== 'boolean') throw bad(`${name} must be true or false.`);
  return v;
}

/** A required string body property (non-empty after trimming). */
export function stringProp(o: Record<string, unknown>, name: string): string {
  const v = prop(o, name);
  if (v === undefined || v === null || (typeof v === 'string' && v.trim() === '')) throw bad(`${name} is required.`);
  if (typeof v !== 'string') throw bad(`${name} must be a string.`);
  return v;
}

/** A required GUID body property. */
export function guidProp(o: Record<string, unknown>, name: string): string {
  const v = prop(o, name);
  if (v === undefined || v === null || v === '') throw bad(`${name} is required: a GUID.`);
  if (!isGuid(v)) throw bad(`${name} must be a GUID.`);
  return v;
}

export const PAGE_SIZE_DEFAULT = 3;
export const PAGE_SIZE_MAX = 10;

/** pageSize (default 3, 1 to 10) and pageNumber (default 1, from 1) of the legacy searches (legacy spec 8). */
export function paging(q: URLSearchParams): { pageSize: number; pageNumber: number } {
  const pageSize = optionalIntParam(q, 'pageSize') ?? PAGE_SIZE_DEFAULT;
  const pageNumber = optionalIntParam(q, 'pageNumber') ?? 1;
  if (pageSize < 1 || pageSize > PAGE_SIZE_MAX) throw bad(`pageSize must be between 1 and ${PAGE_SIZE_MAX}.`);
  if (pageNumber < 1) throw bad('pageNumber must be 1 or more.');
  return { pageSize, pageNumber };
}

export function page<T>(rows: T[], p: { pageSize: number; pageNumber: number }): T[] {
  const start = (p.pageNumber - 1) * p.pageSize;
  return rows.slice(start, start + p.pageSize);
}
