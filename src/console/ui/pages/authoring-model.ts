// The template editor's model: the document as plain JSON changed immutably by path, refs
// made for new items, and each validation violation placed at the control its `path`
// points to (the deepest control the editor shows for that path; docs/template-document.md).
import { createContext } from 'preact';

export type Doc = Record<string, any>;
export type Path = (string | number)[];

export interface Violation {
  path: string;
  code: string;
  message: string;
  hint?: string;
  severity: 'error' | 'warning';
}

/** Every content type of the document format (docs/template-document.md "Fields"). */
export const FIELD_TYPES = ['ShortText', 'LongText', 'EmailInput', 'Website', 'Date', 'DropDown', 'MultiChoice', 'SubTasks', 'Members', 'Table', 'File', 'FileUpload', 'Image', 'Video', 'Text', 'LinkedChecklist'];
/** Types that take an answer, and so a required flag. */
export const ANSWERABLE = new Set(['ShortText', 'LongText', 'EmailInput', 'Website', 'Date', 'DropDown', 'MultiChoice', 'SubTasks', 'Members', 'Table', 'FileUpload', 'LinkedChecklist']);
/** Types whose choices are listed (`options`, or `items` for Sub-Tasks) or come from a Data Set. */
export const CHOICE_TYPES = new Set(['DropDown', 'MultiChoice', 'SubTasks']);
export const OPERATORS = ['is', 'isNot', 'contains', 'doesNotContain', 'startsWith', 'endsWith', 'isBefore', 'isAfter', 'isEmpty', 'isNotEmpty'];

/** `$.tasks[2].fields[0]` of a path. */
export const jsonPath = (p: Path) => '$' + p.map((s) => (typeof s === 'number' ? `[${s}]` : `.${s}`)).join('');
/** A DOM id for the control at a path. */
export const idOf = (p: Path | string) => `ed${(typeof p === 'string' ? p : jsonPath(p)).replace(/[^A-Za-z0-9]+/g, '-')}`;

export function getAt(doc: any, p: Path): any {
  return p.reduce((o, s) => (o == null ? undefined : o[s]), doc);
}

/** A copy of `doc` with the value at `p` replaced (undefined removes a property, or an array item). */
export function setAt(doc: any, p: Path, value: unknown): any {
  if (p.length === 0) return value;
  const [head, ...rest] = p;
  const inner = setAt(doc?.[head], rest, value);
  if (Array.isArray(doc)) {
    const next = [...doc];
    if (inner === undefined && rest.length === 0) next.splice(head as number, 1);
    else next[head as number] = inner;
    return next;
  }
  const next = { ...(doc ?? {}) };
  if (inner === undefined) delete next[head];
  else next[head] = inner;
  return next;
}

/** A copy with the array item at `p` moved by `by` places (nothing when it would leave the array). */
export function moveAt(doc: any, p: Path, by: number): any {
  const list = getAt(doc, p.slice(0, -1)) as any[];
  const i = p[p.length - 1] as number;
  const j = i + by;
  if (!Array.isArray(list) || j < 0 || j >= list.length) return doc;
  const next = [...list];
  [next[i], next[j]] = [next[j], next[i]];
  return setAt(doc, p.slice(0, -1), next);
}

/** Every ref the document uses. */
function refs(doc: Doc): Set<string> {
  const out = new Set<string>();
  for (const t of doc.tasks ?? []) {
    if (t?.ref) out.add(t.ref);
    for (const f of t?.fields ?? []) if (f?.ref) out.add(f.ref);
  }
  for (const c of doc.conditions ?? []) if (c?.ref) out.add(c.ref);
  for (const n of doc.notifications ?? []) if (n?.ref) out.add(n.ref);
  return out;
}

/** A ref no item of the document has (`task_3`, `field_7`). */
export function freshRef(doc: Doc, stem: string): string {
  const used = refs(doc);
  for (let n = 1; ; n++) if (!used.has(`${stem}_${n}`)) return `${stem}_${n}`;
}

/** The item at `p` given a ref when it has none: answers the document and the ref. */
export function ensureRef(doc: Doc, p: Path, stem: string): [Doc, string] {
  const item = getAt(doc, p);
  if (item?.ref) return [doc, item.ref];
  const ref = freshRef(doc, stem);
  return [setAt(doc, [...p, 'ref'], ref), ref];
}

/** The paths the editor shows a control (or a group of controls) for. */
export function anchors(doc: Doc): Set<string> {
  const out = new Set<string>(['$', '$.name', '$.description', '$.tasks', '$.conditions']);
  (Array.isArray(doc.tasks) ? doc.tasks : []).forEach((t: any, i: number) => {
    const tp = `$.tasks[${i}]`;
    for (const s of ['', '.name', '.isHeading', '.isStop', '.dueDate', '.fields']) out.add(tp + s);
    (Array.isArray(t?.fields) ? t.fields : []).forEach((_f: any, j: number) => {
      const fp = `${tp}.fields[${j}]`;
      for (const s of ['', '.type', '.label', '.isRequired', '.options', '.items', '.dataSet', '.columns', '.mode', '.selectionMode', '.content', '.url', '.caption', '.template', '.placeholder']) out.add(fp + s);
    });
  });
  (Array.isArray(doc.conditions) ? doc.conditions : []).forEach((c: any, k: number) => {
    const cp = `$.conditions[${k}]`;
    for (const s of ['', '.action', '.match', '.targets']) out.add(cp + s);
    (Array.isArray(c?.when) ? c.when : []).forEach((_w: any, m: number) => ['', '.operator', '.value'].forEach((x) => out.add(`${cp}.when[${m}]${x}`)));
  });
  return out;
}

/** The deepest shown path a violation's path falls under (`$` when the editor shows nothing nearer). */
export function anchorOf(path: string, shown: Set<string>): string {
  let p = path;
  while (!shown.has(p)) {
    const cut = Math.max(p.lastIndexOf('.'), p.lastIndexOf('['));
    if (cut <= 0) return '$';
    p = p.slice(0, cut);
  }
  return p;
}

/** The violations grouped by the path of the control that shows them. */
export function placeViolations(doc: Doc, violations: Violation[]): Map<string, Violation[]> {
  const shown = anchors(doc);
  const out = new Map<string, Violation[]>();
  for (const v of violations) {
    const a = anchorOf(v.path, shown);
    out.set(a, [...(out.get(a) ?? []), v]);
  }
  return out;
}

/** The violations placed by path, for every control of the editor. */
export const IssuesContext = createContext<Map<string, Violation[]>>(new Map());

/** `options` lines to the document's `[{text}]`, keeping the id of a line whose text stayed. */
export function linesToChoices(text: string, before: any[] | undefined): { text: string; id?: string }[] {
  const old = Array.isArray(before) ? before : [];
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .map((line) => {
      const kept = old.find((o) => o?.text === line && o.id);
      return kept ? { id: kept.id, text: line } : { text: line };
    });
}

/** Tasks and fields that rules may name: each with its path, a readable name and its ref if any. */
export function targetsOf(doc: Doc): { path: Path; name: string; ref?: string; kind: 'task' | 'field'; type?: string }[] {
  const out: { path: Path; name: string; ref?: string; kind: 'task' | 'field'; type?: string }[] = [];
  (doc.tasks ?? []).forEach((t: any, i: number) => {
    out.push({ path: ['tasks', i], name: `Task ${i + 1}: ${t?.name || '(unnamed)'}`, ref: t?.ref, kind: 'task' });
    (t?.fields ?? []).forEach((f: any, j: number) => out.push({ path: ['tasks', i, 'fields', j], name: `Field: ${f?.label || f?.type} (task ${i + 1})`, ref: f?.ref, kind: 'field', type: f?.type }));
  });
  return out;
}
