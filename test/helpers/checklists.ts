// Helpers for the checklist and standalone task tests.
import assert from 'node:assert/strict';
import type { ApiAnswer } from './server';

export const GUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Asserts the v3 error envelope with code, status and (optionally) field. */
export function refused(r: ApiAnswer, status: number, code: string, field?: string): void {
  assert.equal(r.status, status, `expected ${status} ${code}, got ${r.status} ${r.text}`);
  assert.equal(r.body?.error?.code, code, r.text);
  if (field !== undefined) assert.equal(r.body.error.field, field, r.text);
  assert.equal(typeof r.body.error.requestId, 'string');
}

export const keysOf = (r: ApiAnswer): string[] => (r.body.items ?? r.body.tasks).map((x: { key: string }) => x.key);
