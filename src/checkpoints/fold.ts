// The change log read as net changes per row (docs/checkpoints.md "What a diff says"): a row's
// state before is the first change's `old`, after is the last change's `new`; a row inserted
// and deleted since never existed for the diff, and a row put back as it was did not change.
// The same rows come out of two files compared whole (rows/change-log.ts tableDifference), so
// the route and `wfe diff` give one answer.
import type { ChangeRow } from '../rows/change-log';

export type Json = Record<string, unknown>;

export interface NetChange {
  tbl: string;
  row: string;
  /** The row before (absent: it did not exist). */
  old?: Json;
  /** The row after (absent: it no longer exists). */
  new?: Json;
}

/** Fields that say who and when, not what: a row put back with the same content is no change. */
const META = new Set(['by', 'at']);

function sameContent(a: Json, b: Json): boolean {
  for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
    if (META.has(k)) continue;
    if (JSON.stringify(a[k]) !== JSON.stringify(b[k])) return false;
  }
  return true;
}

const parse = (s: string | null): Json | undefined => (s === null ? undefined : (JSON.parse(s) as Json));

/** Net changes, in the order their rows first changed. */
export function fold(changes: ChangeRow[]): NetChange[] {
  const byRow = new Map<string, { tbl: string; row: string; old: string | null; new: string | null }>();
  for (const c of changes) {
    const key = `${c.tbl}\u0000${c.row}`;
    const seen = byRow.get(key);
    if (seen) seen.new = c.new;
    else byRow.set(key, { tbl: c.tbl, row: c.row, old: c.old, new: c.new });
  }
  const out: NetChange[] = [];
  for (const r of byRow.values()) {
    const old = parse(r.old);
    const now = parse(r.new);
    if (!old && !now) continue;
    if (old && now && sameContent(old, now)) continue;
    out.push({ tbl: r.tbl, row: r.row, ...(old ? { old } : {}), ...(now ? { new: now } : {}) });
  }
  return out;
}
