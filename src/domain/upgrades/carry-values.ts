// The answer half of the carry table (spec v3 4.4 "Upgrade checklists"): how a stored answer
// of a field (matched by field key) moves onto the field's definition in the target version.
// Whatever the target cannot hold is returned in `lost` (written to the activity feed by the
// caller); values of removed table columns and Linked Checklist links are dropped silently.
import type { Ctx } from '../../context';
import type { DocField } from '../../rows/template-document';
import { isLinked, linkedRecords } from '../tasks/linked-records';
import { tableColumns, validateAnswer } from '../tasks/field-values';
import { memberById, fullName, inGroupNamed, workspaceMember } from '../../rows/people';

export interface Carried {
  /** The value to store; undefined: nothing (the field is left empty). */
  value: unknown;
  /** Parts of the old answer the target cannot hold, as people read them. */
  lost: string[];
}

const TEXT_TYPES = new Set(['ShortText', 'LongText', 'EmailInput', 'Website']);
const CHOICE_TYPES = new Set(['DropDown', 'MultiChoice', 'SubTasks']);

type Choice = string | { recordKey: string; text: string };
const choiceText = (c: Choice) => (typeof c === 'string' ? c : c.text);

/** A stored answer as people read it (activity texts). */
export function describeValue(ctx: Pick<Ctx, 'db'>, f: DocField, v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (f.type === 'Members' && Array.isArray(v)) {
    return v
      .map((id) => memberById(ctx.db, id as number))
      .map((m) => (m ? (fullName(m) ?? m.email ?? `member ${m.id}`) : 'a former member'))
      .join(', ');
  }
  if (f.type === 'Table' && Array.isArray(v)) return (v as unknown[][]).map((r) => r.map((c) => c ?? '').join(' | ')).join('; ');
  if (Array.isArray(v)) return v.map((c) => choiceText(c as Choice)).join(', ');
  if (typeof v === 'object' && typeof (v as { text?: unknown }).text === 'string') return (v as { text: string }).text;
  if (typeof v === 'object' && typeof (v as { checklistKey?: unknown }).checklistKey === 'string') return `checklist ${(v as { checklistKey: string }).checklistKey}`;
  return JSON.stringify(v);
}

const sameLink = (a: DocField, b: DocField) => JSON.stringify(linkKey(a)) === JSON.stringify(linkKey(b));
function linkKey(f: DocField) {
  if (!isLinked(f)) return null;
  const l = f.dataSet as Record<string, unknown>;
  const lc = (x: unknown) => (typeof x === 'string' ? x.trim().toLowerCase() : null);
  return [lc(l.key ?? l.name), lc(l.viewKey ?? l.view), lc(l.displayFieldKey ?? l.displayField)];
}

/** One choice of `oldF` as a choice of `newF`, or undefined when the target does not offer it. */
function carryChoice(ctx: Ctx, oldF: DocField, newF: DocField, c: Choice): Choice | undefined {
  const list = (f: DocField) => ((f.type === 'SubTasks' ? f.items : f.options) as { id?: string; text: string }[] | undefined) ?? [];
  if (isLinked(newF)) {
    const records = linkedRecords(ctx, newF);
    // Same link: the record itself, if the view still holds it (its words may have changed).
    if (typeof c !== 'string' && isLinked(oldF) && sameLink(oldF, newF)) {
      const r = records.find((x) => x.key.toLowerCase() === c.recordKey.toLowerCase());
      return r ? { recordKey: r.key, text: r.text } : undefined;
    }
    // The link changed (or the field was not linked): matched by displayed words.
    const words = choiceText(c).trim().toLowerCase();
    const r = records.find((x) => x.text.trim().toLowerCase() === words);
    return r ? { recordKey: r.key, text: r.text } : undefined;
  }
  const options = list(newF);
  if (typeof c === 'string' && !isLinked(oldF)) {
    // Selection by option key: the old option's id names the new option, whatever it now reads.
    const old = list(oldF).find((o) => o.text === c) ?? list(oldF).find((o) => o.text.toLowerCase() === c.toLowerCase());
    const byId = old?.id ? options.find((o) => o.id?.toLowerCase() === old.id!.toLowerCase()) : undefined;
    if (byId) return byId.text;
    if (old?.id) return undefined; // the option was removed
  }
  // Unlinked now, linked (or unknown) before: matched by displayed words.
  const words = choiceText(c).trim().toLowerCase();
  return options.find((o) => o.text.trim().toLowerCase() === words)?.text;
}

function carryChoices(ctx: Ctx, oldF: DocField, newF: DocField, stored: unknown): Carried {
  const list = (Array.isArray(stored) ? stored : [stored]) as Choice[];
  const kept: Choice[] = [];
  const lost: string[] = [];
  for (const c of list) {
    const n = carryChoice(ctx, oldF, newF, c);
    if (n === undefined) lost.push(`${choiceText(c)} (no longer offered)`);
    else if (!kept.some((k) => JSON.stringify(k) === JSON.stringify(n))) kept.push(n);
  }
  if (newF.type === 'DropDown') {
    // A DropDown holds one choice.
    for (const extra of kept.splice(1)) lost.push(`${choiceText(extra)} (the field now takes one choice)`);
    return { value: kept[0], lost };
  }
  return { value: kept.length ? kept : undefined, lost };
}

function carryMembers(ctx: Ctx, newF: DocField, stored: unknown): Carried {
  const ids = (Array.isArray(stored) ? stored : []) as number[];
  const group = typeof newF.group === 'string' ? newF.group.trim().toLowerCase() : undefined;
  const offered = (id: number) => {
    const m = workspaceMember(ctx.db, ctx.workspace.id, id);
    if (!m || m.is_active !== 1 || m.is_removed === 1 || m.is_anonymous === 1) return false;
    if (!group) return true;
    return inGroupNamed(ctx.db, ctx.workspace.id, id, group);
  };
  const kept: number[] = [];
  const lost: string[] = [];
  for (const id of ids) {
    if (offered(id)) kept.push(id);
    else lost.push(`${describeValue(ctx, newF, [id])} (no longer offered)`);
  }
  if (newF.selectionMode === 'single' && kept.length > 1) {
    for (const id of kept.splice(1)) lost.push(`${describeValue(ctx, newF, [id])} (the field now takes one person)`);
  }
  return { value: kept.length ? kept : undefined, lost };
}

/** Table rows re-laid on the target's columns, matched by column id (else by name); removed columns drop silently. */
function carryTable(oldF: DocField, newF: DocField, stored: unknown): Carried {
  const rows = (Array.isArray(stored) ? stored : []) as (string | null)[][];
  const oldCols = tableColumns(oldF);
  const newCols = tableColumns(newF);
  const width = Math.max(newCols.length, 1);
  const from = newCols.map((nc) => {
    let i = nc.id ? oldCols.findIndex((oc) => oc.id?.toLowerCase() === nc.id!.toLowerCase()) : -1;
    if (i < 0 && nc.fieldKey) i = oldCols.findIndex((oc) => oc.fieldKey?.toLowerCase() === nc.fieldKey!.toLowerCase());
    if (i < 0 && !nc.id) i = oldCols.findIndex((oc) => !oc.id && oc.name.toLowerCase() === nc.name.toLowerCase());
    return i;
  });
  if (newCols.length === 0) from.push(oldCols.length === 0 ? 0 : -1);
  const out = rows.map((r) => Array.from({ length: width }, (_, i) => (from[i] >= 0 ? (r[from[i]] ?? null) : null)));
  return { value: out.length ? out : undefined, lost: [] };
}

function carryDate(oldF: DocField, newF: DocField, stored: unknown): Carried {
  if (typeof stored !== 'string') return { value: undefined, lost: [] };
  const om = (oldF.mode as string | undefined) ?? 'date';
  const nm = (newF.mode as string | undefined) ?? 'date';
  if (om === nm) return { value: stored, lost: [] };
  // "The date when given": a date survives into date-and-time (midnight UTC) and back.
  if (om === 'date' && nm === 'date-and-time') return { value: `${stored}T00:00:00.000Z`, lost: [] };
  if (om === 'date-and-time' && nm === 'date') return { value: stored.slice(0, 10), lost: [] };
  return { value: undefined, lost: [`${stored} (the field now holds ${nm === 'time' ? 'a time' : 'a date'} only)`] };
}

/**
 * Carries `stored` (the answer of `oldF`) onto `newF`, the same field key in the target version.
 * File Upload answers are files, moved by the caller.
 */
export function carryValue(ctx: Ctx, oldF: DocField, newF: DocField, stored: unknown): Carried {
  if (stored === null || stored === undefined) return { value: undefined, lost: [] };
  const shown = describeValue(ctx, oldF, stored);
  const cannot = (why: string): Carried => ({ value: undefined, lost: shown === '' ? [] : [`${shown} (${why})`] });
  if (TEXT_TYPES.has(oldF.type) && TEXT_TYPES.has(newF.type)) {
    try {
      const v = validateAnswer(ctx, newF, stored, 'value');
      return { value: v === null ? undefined : v, lost: [] };
    } catch {
      return cannot(`not a valid ${newF.type} answer`);
    }
  }
  if (oldF.type !== newF.type) {
    if (CHOICE_TYPES.has(oldF.type) && CHOICE_TYPES.has(newF.type)) return carryChoices(ctx, oldF, newF, stored);
    if (oldF.type === 'LinkedChecklist') return { value: undefined, lost: [] };
    return cannot(`the field is now ${newF.type}`);
  }
  switch (newF.type) {
    case 'Date':
      return carryDate(oldF, newF, stored);
    case 'DropDown':
    case 'MultiChoice':
    case 'SubTasks':
      return carryChoices(ctx, oldF, newF, stored);
    case 'Members':
      return carryMembers(ctx, newF, stored);
    case 'Table':
      return carryTable(oldF, newF, stored);
    case 'LinkedChecklist':
      // The link survives only while the field links to the same template; otherwise dropped unrecorded.
      return sameTemplate(oldF, newF) ? { value: stored, lost: [] } : { value: undefined, lost: [] };
    default:
      return { value: stored, lost: [] };
  }
}

export const sameTemplate = (a: DocField, b: DocField) =>
  typeof a.template === 'string' && typeof b.template === 'string' && a.template.trim().toLowerCase() === b.template.trim().toLowerCase();
