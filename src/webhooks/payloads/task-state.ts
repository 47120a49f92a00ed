// Halted and hidden flags of a checklist's tasks for payloads (spec v3 2.4).
// A task is halted while an earlier stop task is incomplete; hidden while a
// condition hides it. When the checklist area publishes its own evaluator, the
// payloads should call that one instead (one rule, one place).
import type { TemplateDocument } from '../../domain/templates/document';

export interface TaskStateRow {
  id: number;
  key: string;
  is_heading: number;
  is_stop: number;
  status: string | null;
}

export function haltedTasks(tasks: TaskStateRow[]): Set<number> {
  const halted = new Set<number>();
  let blocked = false;
  for (const t of tasks) {
    if (blocked && !t.is_heading) halted.add(t.id);
    if (t.is_stop && !t.is_heading && t.status === 'Incomplete') blocked = true;
  }
  return halted;
}

const textOf = (v: unknown): string | undefined =>
  typeof v === 'string' ? v : v && typeof v === 'object' && typeof (v as { text?: unknown }).text === 'string' ? (v as { text: string }).text : undefined;

function test(op: string, actual: unknown, expected: unknown): boolean {
  const empty = actual === undefined || actual === null || actual === '' || (Array.isArray(actual) && actual.length === 0);
  const texts = Array.isArray(actual) ? actual.map(textOf) : [textOf(actual)];
  const want = expected === undefined || expected === null ? undefined : String(expected);
  switch (op.replace(/[_\s-]/g, '').toLowerCase()) {
    case 'is':
    case 'equals':
      return want !== undefined && texts.includes(want);
    case 'isnot':
    case 'notequals':
      return !(want !== undefined && texts.includes(want));
    case 'contains':
      return want !== undefined && texts.some((t) => t?.includes(want));
    case 'isempty':
      return empty;
    case 'isnotempty':
      return !empty;
    default:
      return false;
  }
}

/** Task keys a condition hides, given answers by field key. */
export function hiddenTaskKeys(doc: TemplateDocument, values: Map<string, unknown>): Set<string> {
  const refToTask = new Map<string, string>();
  const refToField = new Map<string, string>();
  for (const t of doc.tasks) {
    if (t.ref && t.id) refToTask.set(t.ref, t.id);
    for (const f of t.fields ?? []) if (f.ref && f.id) refToField.set(f.ref, f.id);
  }
  const shown = new Map<string, boolean>(); // task key -> some show condition matched
  const hidden = new Set<string>();
  for (const c of doc.conditions ?? []) {
    const results = c.when.map((w) => test(w.operator, values.get(refToField.get(w.field) ?? w.field), w.value));
    const match = c.match === 'any' ? results.some(Boolean) : results.every(Boolean);
    for (const target of c.targets) {
      const key = refToTask.get(target);
      if (!key) continue;
      if (c.action === 'show') shown.set(key, (shown.get(key) ?? false) || match);
      else if (match) hidden.add(key);
    }
  }
  for (const [key, matched] of shown) if (!matched) hidden.add(key);
  return hidden;
}
