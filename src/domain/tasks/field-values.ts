// Field answers: how each content type is validated and how answers are shown (spec v3 2.4
// field object, 2.5 field properties, 4.3 "Fields"). Stored shapes follow the shared contract
// (brief: field_values.value JSON); response shapes are in docs/tasks.md.
import type { Ctx } from '../../context';
import { validationError } from '../../errors';
import type { DocField } from '../../rows/template-document';
import { memberById, fullName, type MemberRow } from '../../rows/people';
import { isLinked, linkedRecords } from './linked-records';
import { resolveNaming, type NamingEntry } from './naming';
import { isGuid } from '../../ids';
import { checklistByKey } from '../../rows/checklists';

const EMAIL = /^[^\s@<>(),;:"]+@[^\s@<>(),;:"]+\.[^\s@<>(),;:"]+$/;
const MAX_TEXT = 50_000;

/** A template regex as stored, possibly wrapped in slashes with flags (2.5): trimmed before applying. */
export function templateRegex(source: string): RegExp | null {
  let pattern = source;
  let flags = '';
  const m = /^\/(.*)\/([a-z]*)$/s.exec(source);
  if (m) {
    pattern = m[1];
    flags = m[2].replace(/[^imsu]/g, '');
  }
  try {
    return new RegExp(pattern, flags);
  } catch {
    return null;
  }
}

const typeName = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : `a ${typeof v}`);

function mustString(v: unknown, path: string, what = 'a string'): string {
  if (typeof v !== 'string') throw validationError(`${path} must be ${what}, not ${typeName(v)}.`, path);
  if (v.length > MAX_TEXT) throw validationError(`${path} must be at most ${MAX_TEXT} characters.`, path);
  return v;
}

function mustArray(v: unknown, path: string, what: string): unknown[] {
  if (!Array.isArray(v)) throw validationError(`${path} must be an array of ${what}, not ${typeName(v)}.`, path);
  return v;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** 'YYYY-MM-DD' that names a real calendar day. */
function isCalendarDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(+m[1], +m[2] - 1, +m[3]));
  return d.getUTCFullYear() === +m[1] && d.getUTCMonth() === +m[2] - 1 && d.getUTCDate() === +m[3];
}

/**
 * An ISO 8601 instant (4.1 rule 6): `Z` = UTC, an offset (±HH:MM, ±HHMM or ±HH, at most 18 hours,
 * minutes under 60) is honoured, no offset = UTC. Returns epoch ms or null when malformed.
 */
export function parseInstant(s: string): number | null {
  const m = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|z|[+-]\d{2}(?::?\d{2})?)?$/.exec(s.trim());
  if (!m || !isCalendarDate(m[1])) return null;
  const [h, mi, se] = [+m[2], +m[3], m[4] ? +m[4] : 0];
  if (h > 23 || mi > 59 || se > 59) return null;
  let offsetMin = 0;
  const off = m[6];
  if (off && off.toUpperCase() !== 'Z') {
    const om = /^([+-])(\d{2}):?(\d{2})?$/.exec(off)!;
    const oh = +om[2];
    const omm = om[3] ? +om[3] : 0;
    if (oh > 18 || omm > 59 || (oh === 18 && omm > 0)) return null;
    offsetMin = (om[1] === '-' ? -1 : 1) * (oh * 60 + omm);
  }
  const ms = m[5] ? Math.round(Number(m[5]) * 1000) : 0;
  return Date.parse(`${m[1]}T${pad(h)}:${pad(mi)}:${pad(se)}Z`) + ms - offsetMin * 60_000;
}

/** The value to store for an answer, or null to clear. Throws 400 naming `path`. */
export function validateAnswer(ctx: Ctx, f: DocField, value: unknown, path: string): unknown {
  if (value === null) return null;
  switch (f.type) {
    case 'ShortText': {
      const s = mustString(value, path);
      if (typeof f.regex === 'string' && f.regex !== '' && s !== '') {
        const re = templateRegex(f.regex);
        if (re && !re.test(s)) {
          const why = typeof f.regexMessage === 'string' && f.regexMessage ? f.regexMessage : `The answer must match the pattern ${f.regex}.`;
          throw validationError(`${path}: ${why}`, path, { regexMessage: typeof f.regexMessage === 'string' ? f.regexMessage : undefined });
        }
      }
      return s;
    }
    case 'LongText':
      return mustString(value, path);
    case 'EmailInput': {
      const s = mustString(value, path, 'an email address').trim();
      if (s !== '' && !EMAIL.test(s)) throw validationError(`${path} must be an email address such as name@example.com.`, path);
      return s;
    }
    case 'Website': {
      const s = mustString(value, path, 'a URL').trim();
      if (s !== '') {
        let ok = false;
        try {
          const u = new URL(s);
          ok = (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname.length > 0;
        } catch {
          ok = false;
        }
        if (!ok) throw validationError(`${path} must be an absolute http or https URL such as https://example.com.`, path);
      }
      return s;
    }
    case 'Date':
      return validateDate(f, value, path);
    case 'DropDown':
      return choose(ctx, f, value, path);
    case 'MultiChoice':
    case 'SubTasks': {
      const list = mustArray(value, path, f.type === 'SubTasks' ? 'ticked sub-task texts' : 'option texts');
      const out: unknown[] = [];
      list.forEach((v, i) => {
        const c = choose(ctx, f, v, `${path}[${i}]`);
        const same = (x: unknown) => JSON.stringify(x) === JSON.stringify(c);
        if (!out.some(same)) out.push(c);
      });
      return out;
    }
    case 'Members': {
      const list = mustArray(value, path, 'member ids or {name} entries');
      // multiple is the default (docs/template-document.md), as the template detail reports it.
      const single = f.selectionMode === 'single';
      const ids: number[] = [];
      list.forEach((v, i) => {
        const p = `${path}[${i}]`;
        let entry: NamingEntry;
        if (typeof v === 'number' && Number.isInteger(v)) entry = { type: 'TeamMember', id: v };
        else if (v && typeof v === 'object' && !Array.isArray(v)) entry = v as NamingEntry;
        else throw validationError(`${p} must be a member id or {name}, not ${typeName(v)}.`, p);
        const r = resolveNaming(ctx, entry, p, 'TeamMember');
        if (!ids.includes(r.id)) ids.push(r.id);
      });
      if (single && ids.length > 1) throw validationError(`${path} names ${ids.length} people, but this Members field takes one person (selectionMode single).`, path);
      return ids;
    }
    case 'Table':
      return validateTable(f, value, path);
    case 'LinkedChecklist': {
      const key = typeof value === 'string' ? value : value && typeof value === 'object' ? (value as { checklistKey?: unknown }).checklistKey : undefined;
      if (!isGuid(key)) throw validationError(`${path} must be {"checklistKey": "<GUID>"}.`, path);
      const c = checklistByKey(ctx.db, ctx.workspace.id, key);
      if (!c) throw validationError(`${path} names no checklist of this workspace.`, path);
      return { checklistKey: c.key };
    }
    case 'FileUpload':
      throw validationError(`${path}: a File Upload field is answered by adding files at .../fields/{fieldKey}/files.`, path);
    default:
      throw validationError(`${path}: a ${f.type} field shows content and takes no answer.`, path);
  }
}

function validateDate(f: DocField, value: unknown, path: string): string {
  const mode = (f.mode as string | undefined) ?? 'date';
  const s = mustString(value, path, 'a date string').trim();
  if (mode === 'date') {
    if (!isCalendarDate(s)) throw validationError(`${path} must be a date written YYYY-MM-DD (this Date field's mode is date).`, path);
    return s;
  }
  if (mode === 'time') {
    const m = /^(\d{2}):(\d{2})$/.exec(s);
    if (!m || +m[1] > 23 || +m[2] > 59) throw validationError(`${path} must be a time written HH:MM, 00:00 to 23:59 (this Date field's mode is time).`, path);
    return s;
  }
  const ms = parseInstant(s);
  if (ms === null) {
    throw validationError(
      `${path} must be an ISO 8601 date and time such as 2026-03-02T09:00:00Z or 2026-03-02T10:00:00+01:00 (offsets up to ±18:00; no offset means UTC).`,
      path,
    );
  }
  return new Date(ms).toISOString();
}

/** One option of a DropDown / MultiChoice / SubTasks field: its text, or a Data Set record {recordKey, text}. */
function choose(ctx: Ctx, f: DocField, v: unknown, path: string): unknown {
  if (isLinked(f)) {
    const records = linkedRecords(ctx, f);
    const want = typeof v === 'string' ? v : v && typeof v === 'object' ? ((v as { recordKey?: unknown }).recordKey as string | undefined) : undefined;
    if (typeof want !== 'string') throw validationError(`${path} must be a record key of the linked Data Set view (or {"recordKey"}), not ${typeName(v)}.`, path);
    let r = records.find((x) => x.key.toLowerCase() === want.toLowerCase());
    if (!r) {
      const byText = records.filter((x) => x.text.toLowerCase() === want.toLowerCase());
      if (byText.length > 1) throw validationError(`${path} '${want}' matches more than one record (${byText.map((x) => x.key).join(', ')}); send the record key.`, path);
      r = byText[0];
    }
    if (!r) throw validationError(`${path} '${want}' is not a record of the linked Data Set view.`, path);
    return { recordKey: r.key, text: r.text };
  }
  const options = ((f.type === 'SubTasks' ? f.items : f.options) as { id?: string; text: string }[] | undefined) ?? [];
  if (typeof v !== 'string') throw validationError(`${path} must be an option text, not ${typeName(v)}.`, path);
  const o = options.find((x) => x.text.toLowerCase() === v.toLowerCase()) ?? options.find((x) => x.id?.toLowerCase() === v.toLowerCase());
  if (!o) throw validationError(`${path} '${v}' is not one of: ${options.map((x) => x.text).join(', ')}.`, path);
  return o.text;
}

export function tableColumns(f: DocField): { id?: string; name: string; fieldKey?: string }[] {
  const cols = f.columns as { id?: string; name?: string; fieldName?: string; fieldKey?: string }[] | undefined;
  return (cols ?? []).map((c, i) => ({ id: c.id, name: c.name ?? c.fieldName ?? `Column ${i + 1}`, fieldKey: c.fieldKey }));
}

export function validateRow(f: DocField, row: unknown, path: string): (string | null)[] {
  const width = Math.max(tableColumns(f).length, 1);
  if (!Array.isArray(row)) throw validationError(`${path} must be an array of cell strings (null for an empty cell), not ${typeName(row)}.`, path);
  if (row.length > width) throw validationError(`${path} has ${row.length} cells; this table has ${width} columns.`, path);
  return Array.from({ length: width }, (_, i) => {
    const c = row[i];
    if (c === undefined || c === null) return null;
    if (typeof c !== 'string') throw validationError(`${path}[${i}] must be a string or null, not ${typeName(c)}.`, `${path}[${i}]`);
    if (c.length > 10_000) throw validationError(`${path}[${i}] must be at most 10,000 characters.`, `${path}[${i}]`);
    return c;
  });
}

function validateTable(f: DocField, value: unknown, path: string): (string | null)[][] {
  const rows = mustArray(value, path, 'rows (each an array of cell strings)');
  if (rows.length > 1000) throw validationError(`${path} must have at most 1,000 rows.`, path);
  return rows.map((r, i) => validateRow(f, r, `${path}[${i}]`));
}

/** Whether a stored answer counts as answered (for required fields). */
export function isAnswered(v: unknown): boolean {
  if (v === null || v === undefined) return false;
  if (typeof v === 'string') return v.trim() !== '';
  if (Array.isArray(v)) return v.length > 0 && (v.some((x) => !Array.isArray(x)) || v.some((row) => (row as unknown[]).some((c) => c !== null && c !== '')));
  return true;
}

/** The response `value` of a stored answer (docs/tasks.md "Field values"). */
export function answerView(ctx: Ctx, f: DocField, stored: unknown): unknown {
  if (stored === null || stored === undefined) return undefined;
  if (f.type === 'Members' && Array.isArray(stored)) {
    return stored
      .map((id) => memberById(ctx.db, id as number))
      .filter((m): m is MemberRow => m !== undefined)
      .map((m) => ({ id: m.id, type: 'TeamMember', name: fullName(m) }));
  }
  return stored;
}

export const ARRAY_TYPES = new Set(['MultiChoice', 'SubTasks', 'Members', 'Table', 'FileUpload']);
