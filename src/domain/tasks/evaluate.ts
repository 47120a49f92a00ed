// Derived task flags (spec v3 2.4, 3): isCurrentlyHidden from the template's conditions
// evaluated on the checklist's current answers, isCurrentlyHalted from stop tasks.
// Nothing here is stored in the database; the result is remembered in memory until the
// rows it reads change (store/memo.ts).
import { declareMemo, memoOn } from '../../store/memo';
import type { Ctx } from '../../context';
import type { TemplateDocument } from '../../rows/template-document';
import { taskStatesOfChecklist, type TaskState } from '../../rows/tasks';
import { fieldValuesOfChecklist } from '../../rows/field-values';
import { fieldFileNamesOfChecklist } from '../../rows/files';

export interface ChecklistState {
  /** Task keys (lower case) hidden by a condition. */
  hiddenTasks: Set<string>;
  /** Field keys (lower case) hidden by a condition. */
  hiddenFields: Set<string>;
  /** Task keys (lower case) behind an incomplete stop task. */
  haltedTasks: Set<string>;
}

export const EMPTY_STATE: ChecklistState = { hiddenTasks: new Set(), hiddenFields: new Set(), haltedTasks: new Set() };

/** Current answers of a checklist's tasks, by field key (lower case). */
export function checklistAnswers(ctx: Pick<Ctx, 'db'>, checklistId: number): Map<string, unknown> {
  const rows = fieldValuesOfChecklist(ctx.db, checklistId);
  const out = new Map<string, unknown>();
  for (const r of rows) out.set(r.field_key.toLowerCase(), r.value === null ? null : JSON.parse(r.value));
  // File Upload answers live in `files`: a field with files reads as the list of their names.
  const files = fieldFileNamesOfChecklist(ctx.db, checklistId);
  for (const f of files) {
    const k = f.field_key.toLowerCase();
    const list = (out.get(k) as string[] | undefined) ?? [];
    list.push(f.name);
    out.set(k, list);
  }
  return out;
}

/** The texts an answer compares as: option text, record text, member id, each ticked item, each table cell. */
function texts(v: unknown): string[] {
  if (v === null || v === undefined) return [];
  if (Array.isArray(v)) return v.flatMap(texts);
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>;
    if (typeof o.text === 'string') return [o.text];
    if (typeof o.checklistKey === 'string') return [o.checklistKey];
    return [];
  }
  return [String(v)];
}

const norm = (s: string) => s.replace(/[\s_-]/g, '').toLowerCase();

/**
 * Condition operators (docs/tasks.md): is, isNot, contains, doesNotContain, startsWith, endsWith,
 * isEmpty, isNotEmpty, greaterThan, lessThan (numbers, or ISO dates compared as text). Case,
 * spaces, hyphens and underscores in the operator name are ignored; text comparisons ignore case.
 * An unknown operator never holds.
 */
export function holds(operator: string, answer: unknown, expected: unknown): boolean {
  const have = texts(answer).map((s) => s.toLowerCase());
  const wantList = texts(expected).map((s) => s.toLowerCase());
  const want = wantList[0] ?? '';
  const cmp = (a: string, b: string) => {
    const na = Number(a);
    const nb = Number(b);
    return a.trim() !== '' && b.trim() !== '' && !Number.isNaN(na) && !Number.isNaN(nb) ? na - nb : a < b ? -1 : a > b ? 1 : 0;
  };
  switch (norm(operator)) {
    case 'is':
    case 'eq':
    case 'equals':
    case 'isequalto':
      return have.some((h) => wantList.includes(h));
    case 'isnot':
    case 'neq':
    case 'notequals':
    case 'isnotequalto':
      return !have.some((h) => wantList.includes(h));
    case 'contains':
      return have.some((h) => h.includes(want));
    case 'doesnotcontain':
    case 'notcontains':
      return !have.some((h) => h.includes(want));
    case 'startswith':
      return have.some((h) => h.startsWith(want));
    case 'endswith':
      return have.some((h) => h.endsWith(want));
    case 'isempty':
    case 'empty':
      return have.every((h) => h.trim() === '');
    case 'isnotempty':
    case 'notempty':
    case 'hasvalue':
      return have.some((h) => h.trim() !== '');
    case 'greaterthan':
    case 'gt':
      return have.some((h) => cmp(h, want) > 0);
    case 'lessthan':
    case 'lt':
      return have.some((h) => cmp(h, want) < 0);
    default:
      return false;
  }
}

/**
 * Evaluates a checklist's conditions and stop tasks against its current state. `tasks`: rows
 * handed in, which may not be the stored ones (an upgrade evaluates rows it is about to write).
 * Worked out on every call: what the conditions hide is remembered (below), and the stop tasks'
 * walk is a loop over the task states, so a memo of the whole evaluation won under 1% on every
 * bench row and was removed (docs/performance.md "Memos: kept and removed").
 */
export function evaluateChecklist(ctx: Pick<Ctx, 'db'>, checklistId: number, doc: TemplateDocument, tasks?: readonly TaskState[]): ChecklistState {
  const rows = tasks ?? taskStatesOfChecklist(ctx.db, checklistId);
  const { hiddenTasks, hiddenFields } = conditionsOf(ctx, checklistId, doc);
  const state: ChecklistState = { hiddenTasks, hiddenFields, haltedTasks: new Set() };
  // A task is halted while an earlier, visible stop task is still Incomplete (2.4).
  let behindStop = false;
  for (const r of rows) {
    const k = r.key.toLowerCase();
    if (behindStop && !r.is_heading) state.haltedTasks.add(k);
    if (r.is_stop && !r.is_heading && r.status === 'Incomplete' && !hiddenTasks.has(k)) behindStop = true;
  }
  return state;
}

type Hidden = Pick<ChecklistState, 'hiddenTasks' | 'hiddenFields'>;

// What the conditions hide depends only on the checklist's answers and its document, not on
// the tasks' statuses: remembered until an answer may have changed (store/memo.ts), so a status write evaluates only its stop tasks again.
const HIDDEN = declareMemo({ name: 'hidden by conditions', reads: [{ table: 'field_values' }, { table: 'files' }, { table: 'tasks', columns: ['id', 'checklist_id'] }] });

function conditionsOf(ctx: Pick<Ctx, 'db'>, checklistId: number, doc: TemplateDocument): Hidden {
  const fits = (v: { doc: TemplateDocument }) => v.doc === doc;
  return memoOn<number, { doc: TemplateDocument; hidden: Hidden }>(ctx.db, HIDDEN).get(checklistId, () => ({ doc, hidden: hiddenNow(ctx, checklistId, doc) }), fits).hidden;
}

function hiddenNow(ctx: Pick<Ctx, 'db'>, checklistId: number, doc: TemplateDocument): Hidden {
  const answers = checklistAnswers(ctx, checklistId);

  // refs and ids → kind and key
  const taskKeyByRef = new Map<string, string>();
  const fieldKeyByRef = new Map<string, string>();
  for (const t of doc.tasks) {
    if (t.id) {
      taskKeyByRef.set(t.id.toLowerCase(), t.id.toLowerCase());
      if (t.ref) taskKeyByRef.set(t.ref, t.id.toLowerCase());
    }
    for (const f of t.fields ?? []) {
      if (!f.id) continue;
      fieldKeyByRef.set(f.id.toLowerCase(), f.id.toLowerCase());
      if (f.ref) fieldKeyByRef.set(f.ref, f.id.toLowerCase());
    }
  }

  const shows = new Map<string, boolean>(); // target → some show condition holds
  const hides = new Set<string>();
  for (const c of doc.conditions ?? []) {
    const results = (c.when ?? []).map((w) => {
      const fk = fieldKeyByRef.get(w.field) ?? fieldKeyByRef.get(String(w.field).toLowerCase());
      return holds(w.operator, fk ? answers.get(fk) : undefined, w.value);
    });
    const ok = results.length > 0 && (c.match === 'any' ? results.some(Boolean) : results.every(Boolean));
    for (const target of c.targets ?? []) {
      const key = `${taskKeyByRef.has(target) ? 't' : 'f'}:${taskKeyByRef.get(target) ?? fieldKeyByRef.get(target) ?? target}`;
      if (c.action === 'show') shows.set(key, (shows.get(key) ?? false) || ok);
      else if (ok) hides.add(key);
    }
  }
  const hidden = (key: string) => shows.get(key) === false || hides.has(key);
  const out: Hidden = { hiddenTasks: new Set(), hiddenFields: new Set() };
  for (const t of doc.tasks) {
    if (t.id && hidden(`t:${t.id.toLowerCase()}`)) out.hiddenTasks.add(t.id.toLowerCase());
    for (const f of t.fields ?? []) if (f.id && hidden(`f:${f.id.toLowerCase()}`)) out.hiddenFields.add(f.id.toLowerCase());
  }
  return out;
}
