// Helpers for the Data Set tests (legacy v2 and v3 over one store): fixture keys,
// multipart uploads, event rows and counts.
import type { TestServer } from './server';

export const OFFICES = '50000000-0000-4000-8000-000000000001';
export const COUNTRIES = '50000000-0000-4000-8000-000000000090';
export const OF = {
  name: '51000000-0000-4000-8000-000000000001',
  headcount: '51000000-0000-4000-8000-000000000002',
  contact: '51000000-0000-4000-8000-000000000003',
  open: '51000000-0000-4000-8000-000000000004',
} as const;
export const OV = { all: '53000000-0000-4000-8000-000000000001', open: '53000000-0000-4000-8000-000000000002' } as const;
export const BERLIN = '52000000-0000-4000-8000-000000000001';
export const COUNTRY_GERMANY = '52000000-0000-4000-8000-000000000900';
export const MISSING = '99999999-0000-4000-8000-000000000000';
export const V2 = { 'X-API-VERSION': '2.0' } as const;

export interface EventRow {
  event_type: string;
  subject: string;
}

/** Data Set record events recorded after `since` (the events table id), with their payload snapshot. */
export function recordEvents(s: TestServer, since: number): { type: string; snapshot: Record<string, unknown> }[] {
  return (s.emu.db.prepare("SELECT event_type, subject FROM events WHERE id > ? AND event_type LIKE 'data_set.record.%' ORDER BY id").all(since) as EventRow[]).map((e) => ({
    type: e.event_type,
    snapshot: (JSON.parse(e.subject) as { snapshot: Record<string, unknown> }).snapshot,
  }));
}

export const lastEventId = (s: TestServer): number => (s.emu.db.prepare('SELECT COALESCE(MAX(id), 0) AS n FROM events').get() as { n: number }).n;

export const recordCount = (s: TestServer, dataSetKey: string): number =>
  (s.emu.db.prepare('SELECT COUNT(*) AS n FROM data_set_records r JOIN data_sets d ON d.id = r.data_set_id WHERE d.key = ?').get(dataSetKey) as { n: number }).n;

/** Posts a multipart form (legacy CSV import). */
export async function postForm(s: TestServer, key: string, path: string, parts: Record<string, string | { bytes: Buffer | string; fileName: string }>, headers: Record<string, string> = V2) {
  const fd = new FormData();
  for (const [k, v] of Object.entries(parts)) {
    if (typeof v === 'string') fd.set(k, v);
    else fd.set(k, new Blob([typeof v.bytes === 'string' ? v.bytes : new Uint8Array(v.bytes)]), v.fileName);
  }
  const res = await fetch(s.us + path, { method: 'POST', headers: { 'X-API-KEY': key, ...headers }, body: fd });
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, headers: res.headers, text, body: body as any };
}

/** Raw bytes of a GET (CSV export). */
export async function getBytes(s: TestServer, key: string, path: string, headers: Record<string, string> = {}) {
  const res = await fetch(s.us + path, { headers: { 'X-API-KEY': key, ...headers } });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

/** Sets a member's rights (the fixture gives no one Library.* rights). */
export function setRights(s: TestServer, memberId: number, rights: string[]): void {
  s.emu.db.prepare('UPDATE members SET rights = ? WHERE id = ?').run(JSON.stringify(rights), memberId);
}
