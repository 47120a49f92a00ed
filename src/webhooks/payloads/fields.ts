// Fields in a family A payload (spec v3 6.2): one one-property object per
// control, named from a type prefix and the lower-cased label with spaces as
// underscores. Choices we made where 6.2 is silent are in docs/webhooks.md.
import type { Db } from '../../store/open';
import type { DocField } from '../../rows/template-document';
import { fileUrl } from '../../domain/urls';
import { labelOrUnlabelled } from '../../domain/field-label';
import { filesOfFieldKey, type FileRow as StoredFileRow } from '../../rows/files';
import { offsetTime, type JsonValue } from '../json';

const PREFIX: Record<string, string> = {
  ShortText: 'short_text_',
  LongText: 'long_text_',
  EmailInput: 'email_input_',
  Website: 'website_',
  Date: 'date_',
  DropDown: 'drop_down_',
  MultiChoice: 'multi_choice_drop_down_',
  SubTasks: 'sub_tasks_',
  FileUpload: 'file_',
  File: 'file_upload_',
  Table: 'table_',
};

/** Mail To controls appear as an empty object (6.2); the type names a template may use for it. */
const MAIL_TO = new Set(['MailTo', 'Mailto', 'EmailButton', 'SendEmail']);

/** Lower-cased, each space an underscore; punctuation kept (6.2). */
export const normalise = (s: string) => s.toLowerCase().replace(/ /g, '_');

/** `position` is the control's 1-based place among all of its task's controls. */
export function fieldName(f: DocField, position: number): string {
  return (PREFIX[f.type] ?? '') + normalise(labelOrUnlabelled(f.label, f.type, position));
}

export type DateMode = 'task' | 'checklist';

/** Stored date answers as the payload writes them: with offset in the task payload, without in the checklist payload. */
export function dateValue(v: unknown, mode: DateMode): string | null {
  if (typeof v !== 'string' || v === '') return null;
  const offset = mode === 'task' ? '+00:00' : '';
  if (/^\d{4}-\d{2}-\d{2}$/.test(v)) return `${v}T00:00:00${offset}`;
  const t = /^(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(v);
  if (t) return `${t[1]}:${t[2]}:${t[3] ?? '00'}${offset}`;
  const ms = Date.parse(v);
  return Number.isNaN(ms) ? null : offsetTime(ms, mode === 'task');
}

const textOf = (v: unknown): string | null => {
  if (typeof v === 'string') return v === '' ? null : v;
  if (v && typeof v === 'object' && typeof (v as { text?: unknown }).text === 'string') return (v as { text: string }).text;
  return null;
};

interface Choice {
  text: string;
}

function choices(name: string, offered: Choice[] | undefined, stored: unknown): JsonValue[] {
  const picked = Array.isArray(stored) ? stored.map(textOf).filter((t): t is string => t !== null) : [];
  // A Data Set linked control offers records, not options: only its picked records are listed.
  const all = offered && offered.length ? offered.map((o) => o.text) : picked;
  return all.map((text) => ({ [`${name}_${normalise(text)}`]: picked.includes(text) }));
}

/** What a payload lists of a stored file. */
export type FileRow = Pick<StoredFileRow, 'id' | 'name' | 'content_type' | 'token'>;

function fileList(name: string, files: { name: string; contentType: string; url: string }[]): JsonValue[] {
  return files.map((f, n) => ({
    [`${name}_file_${n}_name`]: f.name,
    [`${name}_file_${n}_content_type`]: f.contentType,
    [`${name}_file_${n}_url`]: f.url,
  }));
}

export interface FieldSource {
  db: Db;
  appUrl: string;
  taskId: number;
  values: Map<string, unknown>;
}

/** The `fields` array of one task, in the template's control order. */
export function payloadFields(src: FieldSource, defs: DocField[], mode: DateMode): JsonValue[] {
  const out: JsonValue[] = [];
  defs.forEach((f, i) => {
    if (MAIL_TO.has(f.type)) {
      out.push({});
      return;
    }
    if (!PREFIX[f.type]) return; // Members, Linked Checklist and content controls do not appear (6.2)
    const name = fieldName(f, i + 1);
    const v = f.id ? src.values.get(f.id) : undefined;
    let value: JsonValue;
    switch (f.type) {
      case 'Date':
        value = dateValue(v, mode);
        break;
      case 'DropDown':
        value = textOf(v);
        break;
      case 'MultiChoice':
        value = choices(name, f.options as Choice[] | undefined, v);
        break;
      case 'SubTasks':
        value = choices(name, (f.items ?? f.options) as Choice[] | undefined, v);
        break;
      case 'FileUpload': {
        const rows = filesOfFieldKey(src.db, src.taskId, f.id ?? '');
        value = fileList(
          name,
          rows.map((r) => ({ name: r.name, contentType: r.content_type, url: fileUrl(src, r.token) })),
        );
        break;
      }
      case 'File': {
        const files = Array.isArray(f.files) ? (f.files as { name?: string; contentType?: string; url?: string }[]) : [];
        value = fileList(
          name,
          files.map((x) => ({ name: x.name ?? '', contentType: x.contentType ?? 'application/octet-stream', url: x.url ?? '' })),
        );
        break;
      }
      case 'Table': {
        const cols = Array.isArray(f.columns) ? (f.columns as { readOnly?: boolean; isReadOnly?: boolean }[]) : [];
        const rows = Array.isArray(v) ? (v as unknown[]) : [];
        const cells: JsonValue[] = [];
        rows.forEach((row, r) => {
          if (!Array.isArray(row)) return;
          row.forEach((cell, c) => {
            if (cell === null || cell === undefined || cell === '') return;
            const col = cols[c] ?? {};
            cells.push({ rowIndex: r + 1, columnIndex: c + 1, value: String(cell), isReadOnly: col.readOnly === true || col.isReadOnly === true });
          });
        });
        value = cells;
        break;
      }
      default:
        value = textOf(v);
    }
    out.push({ [name]: value });
  });
  return out;
}
