// The one validator of Data Set values (legacy spec 2 "Data Set field types"): records,
// CSV import and field type changes all go through `checkValue`, so a value accepted
// one way is accepted every way. Values are stored typed in the record's JSON
// (number, boolean, string); an empty value is never stored (legacy spec 2 "empty
// values omitted"). `cellText` is the inverse used by CSV export, filters and the
// 5 KB rule, so an exported cell re-imports to the same stored value.
import { FIELD_TYPES, type FieldType } from '../../rows/data-set-fields';

export { FIELD_TYPES, type FieldType };
export type StoredValue = string | number | boolean;

export const isFieldType = (t: unknown): t is FieldType => typeof t === 'string' && (FIELD_TYPES as readonly string[]).includes(t);

export type Checked = { ok: true; value: StoredValue | undefined } | { ok: false; reason: string };

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})(T(\d{2}):(\d{2})(:(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
const EMAIL = /^[^\s@"<>(),;:]+@[^\s@"<>(),;:]+\.[^\s@"<>(),;:]+$/;

/** Empty: absent, null, or a string of nothing but spaces. Always allowed (legacy spec 4.8). */
export const isEmptyValue = (v: unknown): boolean => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

function validDate(s: string): boolean {
  const m = DATE.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12 || d < 1) return false;
  const days = new Date(Date.UTC(y, mo, 0)).getUTCDate();
  if (d > days) return false;
  if (m[4] && (Number(m[5]) > 23 || Number(m[6]) > 59 || (m[8] !== undefined && Number(m[8]) > 59))) return false;
  return true;
}

function validUrl(s: string): boolean {
  if (/\s/.test(s)) return false;
  try {
    const u = new URL(s);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
  } catch {
    return false;
  }
}

/**
 * Checks one value for a field type and gives what is stored. Text keeps its
 * characters exactly (no trimming: a CSV round trip is byte for byte); the
 * other types are trimmed first. Numbers and booleans may come as JSON values
 * or as their text (CSV cells, legacy clients that send strings).
 */
export function checkValue(type: FieldType, raw: unknown): Checked {
  if (isEmptyValue(raw)) return { ok: true, value: undefined };
  if (typeof raw === 'object') return { ok: false, reason: 'must be a single value, not an object or array' };
  if (type === 'text') {
    if (typeof raw === 'string') return { ok: true, value: raw };
    if (typeof raw === 'number' && Number.isFinite(raw)) return { ok: true, value: String(raw) };
    if (typeof raw === 'boolean') return { ok: true, value: String(raw) };
    return { ok: false, reason: 'must be text' };
  }
  if (type === 'number') {
    if (typeof raw === 'number') return Number.isFinite(raw) ? { ok: true, value: raw } : { ok: false, reason: 'must be a finite number' };
    if (typeof raw === 'string' && NUMBER.test(raw.trim())) {
      const n = Number(raw.trim());
      if (Number.isFinite(n)) return { ok: true, value: n };
    }
    return { ok: false, reason: 'must be a number' };
  }
  if (type === 'boolean') {
    if (typeof raw === 'boolean') return { ok: true, value: raw };
    if (typeof raw === 'string') {
      const s = raw.trim().toLowerCase();
      if (s === 'true') return { ok: true, value: true };
      if (s === 'false') return { ok: true, value: false };
    }
    return { ok: false, reason: 'must be true or false' };
  }
  if (typeof raw !== 'string') return { ok: false, reason: `must be ${type === 'date' ? 'a date' : type === 'email' ? 'an email address' : 'a URL'} as a string` };
  const s = raw.trim();
  if (type === 'date') return validDate(s) ? { ok: true, value: s } : { ok: false, reason: 'must be a date: YYYY-MM-DD, or an ISO 8601 date and time' };
  if (type === 'email') return EMAIL.test(s) ? { ok: true, value: s } : { ok: false, reason: 'must be an email address' };
  return validUrl(s) ? { ok: true, value: s } : { ok: false, reason: 'must be an absolute http or https URL' };
}

/** A stored value as text: CSV cells, filter comparisons, the 5 KB rule. */
export const cellText = (v: unknown): string => (v === undefined || v === null ? '' : typeof v === 'string' ? v : String(v));

/** Total cell text of a record in UTF-8 bytes (legacy spec 8: at most 5 KB). */
export function recordBytes(values: Record<string, unknown>): number {
  let n = 0;
  for (const k in values) n += Buffer.byteLength(cellText(values[k]), 'utf8');
  return n;
}
