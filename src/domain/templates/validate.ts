// The validator (spec v3 2.5 validation result; docs/validation-codes.md).
// Three passes: a bounded walk (not an object, too deep, too large), the zod
// shape checks, then the meaning checks, which read the raw document loosely so
// that one run reports every violation even when the shape is wrong. It never
// throws on any input.
import type { z } from 'zod';
import type { Db } from '../../store/open';
import { findByName } from '../../rows/people';
import { templateIdByLatestName } from '../../rows/templates';
import { CONTENT_TYPES, ANSWERABLE, FILLABLE, LIMITS, templateDocumentSchema } from '../template-format/document-schema';
import { ViolationList, type PathPart, type ValidationResult } from './violations';
import { dataSetFields, findDataSet, findField, findView } from './datasets';
import { wasViewRemoved } from '../datasets/views';
import { operatorInfo, operatorsFor } from '../template-format/operators';
import type { TemplateDocument } from '../../rows/template-document';
import { ID_KINDS, type IdKind, type KnownIds } from './ids';

export interface ValidateOptions {
  db: Db;
  workspaceId: number;
  /** forbidden: create (an exported document is refused: use copy); known: a version of `template`; any: the fixture loader. */
  ids: 'forbidden' | 'known' | 'any';
  template?: { key: string; knownIds: KnownIds; latest?: TemplateDocument };
}

export interface Validated {
  result: ValidationResult;
  /** The parsed document when there is no error. */
  doc?: TemplateDocument;
}

const TOP_ORDER = ['name', 'description', 'allowAttachedTasks', 'tags', 'parameters', 'tasks', 'conditions', 'notifications'];

/* eslint-disable @typescript-eslint/no-explicit-any -- the validator reads a document of unknown shape and reports what it finds; typing it would be the thing it checks */
type J = any;
const isObj = (v: unknown): v is Record<string, J> => v !== null && typeof v === 'object' && !Array.isArray(v);
const arr = (v: unknown): J[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

export function validateDocument(raw: unknown, opts: ValidateOptions): Validated {
  const list = new ViolationList();
  try {
    if (!isObj(raw)) {
      list.error([], 'invalid_type', `The template document must be a JSON object, not ${describe(raw)}.`, 'Start from the worked example of get_authoring_guide.');
      return { result: list.result(raw) };
    }
    if (!boundedWalk(raw, list)) return { result: list.result(raw) };
    const parsed = templateDocumentSchema().safeParse(raw);
    if (!parsed.success) for (const issue of parsed.error.issues) shapeViolation(raw, issue, list);
    meaning(raw, opts, list);
    const result = list.result(raw, TOP_ORDER);
    return { result, doc: result.valid && parsed.success ? (parsed.data as TemplateDocument) : undefined };
  } catch (e) {
    // A bug in a check must not become a 500: report it as a violation.
    list.error([], 'invalid_document', `The document could not be checked (${e instanceof Error ? e.message : String(e)}).`);
    return { result: list.result(raw) };
  }
}

function describe(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return `a ${typeof v}`;
}

/** Depth, size and cycles, without recursion. False when checking cannot go on. */
function boundedWalk(root: Record<string, unknown>, list: ViolationList): boolean {
  const stack: { v: unknown; path: PathPart[] }[] = [{ v: root, path: [] }];
  const seen = new Set<object>();
  let size = 0;
  while (stack.length) {
    const { v, path } = stack.pop()!;
    if (typeof v === 'string') size += v.length + 2;
    else size += 8;
    if (size > LIMITS.bytes) {
      list.error([], 'too_large', `The document is larger than ${LIMITS.bytes.toLocaleString('en-US')} characters.`, 'Split the process into several templates linked with LinkedChecklist fields.');
      return false;
    }
    if (v === null || typeof v !== 'object') continue;
    if (path.length >= LIMITS.depth) {
      list.error(path, 'too_deep', `The document nests deeper than ${LIMITS.depth} levels; no valid document does.`);
      return false;
    }
    if (seen.has(v)) {
      list.error(path, 'invalid_type', 'The document refers to itself (a cycle); send plain JSON.');
      return false;
    }
    seen.add(v);
    if (Array.isArray(v)) v.forEach((x, i) => stack.push({ v: x, path: [...path, i] }));
    else for (const [k, x] of Object.entries(v)) stack.push({ v: x, path: [...path, k] });
  }
  return true;
}

function at(root: unknown, path: readonly PropertyKey[]): { parent: unknown; value: unknown } {
  let parent: unknown = undefined;
  let node: unknown = root;
  for (const p of path) {
    parent = node;
    node = node !== null && typeof node === 'object' ? (node as Record<PropertyKey, unknown>)[p] : undefined;
  }
  return { parent, value: node };
}

const TYPE_WORD: Record<string, string> = { string: 'a string', number: 'a number', boolean: 'true or false', object: 'an object', array: 'an array', int: 'an integer' };

function shapeViolation(raw: unknown, issue: z.core.$ZodIssue, list: ViolationList): void {
  const path = issue.path.filter((p): p is string | number => typeof p !== 'symbol');
  const { value, parent } = at(raw, path);
  switch (issue.code) {
    case 'invalid_type': {
      if (value === undefined && isObj(parent)) {
        list.error(path, 'required', `${last(path)} is required.`);
      } else {
        list.error(path, 'invalid_type', `${last(path)} must be ${TYPE_WORD[issue.expected] ?? issue.expected}, not ${describe(value)}.`);
      }
      return;
    }
    case 'invalid_union': {
      const disc = (issue as { discriminator?: string }).discriminator;
      if (disc === 'type') {
        if (value === undefined) list.error(path, 'required', 'type is required: every field names its content type.', `One of ${CONTENT_TYPES.join(', ')}.`);
        else if (typeof value === 'string') {
          const near = CONTENT_TYPES.find((t) => t.toLowerCase() === value.toLowerCase().replace(/[\s_-]/g, ''));
          list.error(path, 'unknown_content_type', `${JSON.stringify(value)} is not a content type.`, near ? `Did you mean ${near}?` : `One of ${CONTENT_TYPES.join(', ')} (list_content_types describes each).`);
        } else list.error(path, 'invalid_type', `type must be a string naming a content type, not ${describe(value)}.`);
        return;
      }
      list.error(path, 'invalid_value', `${last(path)} does not have an accepted form.`);
      return;
    }
    case 'unrecognized_keys': {
      for (const k of issue.keys) {
        const hint = KEY_HINTS[k.toLowerCase()];
        list.error([...path, k], 'unknown_property', `${k} is not a property of ${where(path)}.`, hint ? `Did you mean ${hint}?` : 'get_template_schema lists the properties each object takes.');
      }
      return;
    }
    case 'invalid_value':
      list.error(path, 'invalid_value', `${last(path)} must be one of ${issue.values.map((x) => JSON.stringify(x)).join(', ')}${value === undefined ? '' : `, not ${JSON.stringify(value)}`}.`);
      return;
    case 'too_small':
      if (issue.origin === 'array') list.error(path, 'invalid_value', `${last(path)} needs at least ${issue.minimum} entr${issue.minimum === 1 ? 'y' : 'ies'}.`);
      else if (issue.origin === 'string') list.error(path, issue.minimum === 1 ? 'required' : 'invalid_value', `${last(path)} must not be empty.`);
      else list.error(path, 'invalid_value', `${last(path)} must be ${issue.minimum} or more.`);
      return;
    case 'too_big':
      if (issue.origin === 'array') list.error(path, 'too_large', `${last(path)} holds more than ${issue.maximum} entries.`);
      else if (issue.origin === 'string') list.error(path, 'too_large', `${last(path)} is longer than ${issue.maximum} characters.`);
      else list.error(path, 'invalid_value', `${last(path)} must be ${issue.maximum} or less.`);
      return;
    default:
      list.error(path, 'invalid_value', `${last(path)} ${issue.message.replace(/^Invalid input: /, '')}`.trim());
  }
}

const KEY_HINTS: Record<string, string> = {
  required: 'isRequired',
  isrequired: 'isRequired',
  title: 'name (tasks) or label (fields)',
  key: 'id',
  heading: 'isHeading',
  stop: 'isStop',
  choices: 'options',
  subtasks: 'items',
  assignee: 'assignees',
  due: 'dueDate',
  duedate: 'dueDate',
  operand: 'value',
  condition: 'conditions (top level)',
  conditions: 'the top-level conditions list',
  pattern: 'regex',
  multiple: 'selectionMode',
};

const last = (path: readonly PathPart[]) => {
  for (let i = path.length - 1; i >= 0; i--) if (typeof path[i] === 'string') return String(path[i]);
  return 'The document';
};
const where = (path: readonly PathPart[]) => {
  const l = path.length ? last(path) : '';
  if (!path.length) return 'the document';
  if (l === 'fields') return 'a field of this content type';
  if (l === 'tasks') return 'a task';
  return `this object (${l})`;
};

// ── meaning checks ─────────────────────────────────────────────────────────

interface RefEntry {
  kind: 'task' | 'field' | 'condition' | 'notification';
  path: PathPart[];
  task: number;
  field?: number;
  type?: string;
  node: Record<string, J>;
}

function meaning(doc: Record<string, J>, opts: ValidateOptions, list: ViolationList): void {
  const tasks = arr(doc.tasks);
  const refs = new Map<string, RefEntry>();
  const addRef = (r: unknown, e: RefEntry) => {
    if (typeof r !== 'string' || !r) return;
    const prev = refs.get(r);
    if (prev) list.error([...e.path, 'ref'], 'duplicate_ref', `The ref ${JSON.stringify(r)} is already used at ${pathText(prev.path)}.`, 'Refs are unique across tasks, fields, conditions and notifications.');
    else refs.set(r, e);
  };
  tasks.forEach((t, ti) => {
    if (!isObj(t)) return;
    addRef(t.ref, { kind: 'task', path: ['tasks', ti], task: ti, node: t });
    arr(t.fields).forEach((f, fi) => {
      if (isObj(f)) addRef(f.ref, { kind: 'field', path: ['tasks', ti, 'fields', fi], task: ti, field: fi, type: str(f.type), node: f });
    });
  });
  arr(doc.conditions).forEach((c, ci) => isObj(c) && addRef(c.ref, { kind: 'condition', path: ['conditions', ci], task: -1, node: c }));
  arr(doc.notifications).forEach((n, ni) => isObj(n) && addRef(n.ref, { kind: 'notification', path: ['notifications', ni], task: -1, node: n }));

  checkIds(doc, opts, list);

  const people = new Map<string, number>();
  const checkNaming = (entries: unknown, base: PathPart[]) =>
    arr(entries).forEach((e, i) => {
      const n = isObj(e) ? str(e.name) : undefined;
      if (!n || !n.trim()) return;
      let count = people.get(n.toLowerCase());
      if (count === undefined) people.set(n.toLowerCase(), (count = findByName(opts.db, opts.workspaceId, n).length));
      if (count === 0) list.error([...base, i, 'name'], 'assignee_not_found', `No active member or group is named ${JSON.stringify(n)}.`, 'Name a member by full name or email, or a group by name (list_members, list_groups).');
      else if (count > 1) list.error([...base, i, 'name'], 'assignee_ambiguous', `${JSON.stringify(n)} names ${count} members or groups.`, 'Use the member\'s email address.');
    });

  const params = new Map<string, number>();
  arr(doc.parameters).forEach((p, pi) => {
    if (!isObj(p)) return;
    const n = str(p.name);
    if (n !== undefined) {
      if (params.has(n)) list.error(['parameters', pi, 'name'], 'duplicate_parameter', `The parameter ${JSON.stringify(n)} is declared twice.`);
      else params.set(n, pi);
    }
    if (typeof p.field === 'string') {
      const target = refs.get(p.field);
      if (!target) list.error(['parameters', pi, 'field'], 'unknown_ref', `No field has the ref ${JSON.stringify(p.field)}.`);
      else if (target.kind !== 'field') list.error(['parameters', pi, 'field'], 'wrong_ref_kind', `${JSON.stringify(p.field)} is a ${target.kind}; a parameter fills a field.`);
      else if (!FILLABLE.has(target.type ?? '')) list.error(['parameters', pi, 'field'], 'wrong_ref_kind', `A ${target.type} field cannot be filled from a parameter.`, `Fillable types: ${[...FILLABLE].join(', ')}.`);
    }
  });

  tasks.forEach((t, ti) => {
    if (!isObj(t)) return;
    const tp: PathPart[] = ['tasks', ti];
    if (t.isHeading === true) {
      for (const k of ['fields', 'assignees', 'dueDate', 'isStop', 'isAssignedExclusively', 'tags'] as const) {
        const v = t[k];
        const present = Array.isArray(v) ? v.length > 0 : v !== undefined && v !== false;
        if (present) list.error([...tp, k], 'heading_property', `A heading is a divider and takes no ${k}.`, 'Remove it, or make this an ordinary task (isHeading false).');
      }
    }
    checkNaming(t.assignees, [...tp, 'assignees']);
    checkDueDate(t, ti, tasks, refs, list);
    arr(t.fields).forEach((f, fi) => isObj(f) && checkField(f, [...tp, 'fields', fi], opts, params, list));
  });
  checkDueDateCycles(tasks, refs, list);
  checkConditions(doc, tasks, refs, opts, list);

  arr(doc.notifications).forEach((n, ni) => {
    if (!isObj(n)) return;
    const np: PathPart[] = ['notifications', ni];
    checkNaming(n.to, [...np, 'to']);
    const on = str(n.on);
    if (on === 'checklistCompleted') {
      if (n.task !== undefined) list.error([...np, 'task'], 'invalid_value', 'A checklistCompleted notification names no task.');
      return;
    }
    if (on !== 'taskCompleted' && on !== 'taskDue') return;
    if (n.task === undefined) return void list.error([...np, 'task'], 'required', `task is required when on is ${on}.`);
    if (typeof n.task !== 'string') return;
    const target = refs.get(n.task);
    if (!target) return void list.error([...np, 'task'], 'unknown_ref', `No task has the ref ${JSON.stringify(n.task)}.`);
    if (target.kind !== 'task') return void list.error([...np, 'task'], 'wrong_ref_kind', `${JSON.stringify(n.task)} is a ${target.kind}; a notification follows a task.`);
    if (target.node.isHeading === true) list.warn(np, 'never_sent', `${JSON.stringify(n.task)} is a heading: headings are never completed or due, so this notification is never sent.`);
    else if (on === 'taskDue' && !isObj(target.node.dueDate)) list.warn(np, 'never_sent', `${JSON.stringify(n.task)} has no dueDate rule, so it never falls due and this notification is never sent.`, 'Give the task a dueDate, or notify on taskCompleted.');
  });

  if (opts.ids === 'known' && opts.template?.latest) checkDataSetLinks(tasks, opts.template.latest, list);
}

const pathText = (p: PathPart[]) => '$' + p.map((x) => (typeof x === 'number' ? `[${x}]` : `.${x}`)).join('');

function checkIds(doc: Record<string, J>, opts: ValidateOptions, list: ViolationList): void {
  const seen = new Map<string, PathPart[]>();
  const visit = (node: unknown, path: PathPart[], kind: IdKind) => {
    if (!isObj(node) || node.id === undefined) return;
    const id = node.id;
    const p = [...path, 'id'];
    if (opts.ids === 'forbidden') {
      list.error(p, 'ids_not_allowed', 'A new template is created without ids; this looks like an exported document.', 'Remove every id, or use copy_template (POST /v3/templates/{key}/copy) to duplicate a template, or publish it as a version of its own template.');
      return;
    }
    if (typeof id !== 'string') return;
    const lower = id.toLowerCase();
    const prev = seen.get(lower);
    if (prev) list.error(p, 'duplicate_id', `The id ${id} is already used at ${pathText(prev)}.`, 'Give a copied item no id: the service gives it a new one.');
    else seen.set(lower, path);
    if (opts.ids === 'known' && opts.template && !opts.template.knownIds[kind].has(lower)) {
      list.error(p, 'unknown_id', `The ${kind} id ${id} does not belong to template ${opts.template.key}.`, 'Keep the ids of the exported document, and leave new items without an id.');
    }
  };
  arr(doc.tasks).forEach((t, ti) => {
    visit(t, ['tasks', ti], 'task');
    if (!isObj(t)) return;
    arr(t.fields).forEach((f, fi) => {
      const fp: PathPart[] = ['tasks', ti, 'fields', fi];
      visit(f, fp, 'field');
      if (!isObj(f)) return;
      arr(f.options).forEach((o, oi) => visit(o, [...fp, 'options', oi], 'option'));
      arr(f.items).forEach((o, oi) => visit(o, [...fp, 'items', oi], 'option'));
      arr(f.columns).forEach((o, oi) => visit(o, [...fp, 'columns', oi], 'column'));
    });
  });
  arr(doc.conditions).forEach((c, ci) => visit(c, ['conditions', ci], 'condition'));
  arr(doc.notifications).forEach((n, ni) => visit(n, ['notifications', ni], 'notification'));
  void ID_KINDS;
}

/** Slashes around a regex are trimmed before applying (spec v3 2.5); flags after the last slash are honoured. */
export function compileRegex(source: string): RegExp {
  const m = /^\/(.*)\/([a-z]*)$/s.exec(source);
  return m ? new RegExp(m[1], m[2]) : new RegExp(source);
}

const CHOICE_PROP: Record<string, string> = { DropDown: 'options', MultiChoice: 'options', SubTasks: 'items', Table: 'columns' };

function checkField(
  f: Record<string, J>,
  fp: PathPart[],
  opts: ValidateOptions,
  params: Map<string, number>,
  list: ViolationList,
): void {
  const type = str(f.type) ?? '';
  if (!(CONTENT_TYPES as string[]).includes(type)) return;
  if (f.isRequired === true && !ANSWERABLE.has(type)) {
    list.error([...fp, 'isRequired'], 'not_answerable', `A ${type} field shows content and takes no answer, so it cannot be required.`);
  }
  if (type === 'ShortText' && typeof f.regex === 'string') {
    try {
      compileRegex(f.regex);
    } catch (e) {
      list.error([...fp, 'regex'], 'invalid_regex', `The regex does not compile: ${e instanceof Error ? e.message.replace(/^Invalid regular expression: /, '') : String(e)}.`, 'JavaScript syntax; it may be wrapped in slashes, e.g. "/^E\\\\d{4}$/".');
    }
  }
  if (type === 'ShortText' && f.regexMessage !== undefined && f.regex === undefined) {
    list.warn([...fp, 'regexMessage'], 'regex_message_unused', 'regexMessage is shown only when an answer fails regex, and this field has no regex.');
  }
  if (isObj(f.valueFrom) && typeof f.valueFrom.parameter === 'string' && !params.has(f.valueFrom.parameter)) {
    list.error([...fp, 'valueFrom', 'parameter'], 'unknown_ref', `No parameter is named ${JSON.stringify(f.valueFrom.parameter)}.`, 'Declare it in the top-level parameters list.');
  }
  const prop = CHOICE_PROP[type];
  if (prop) {
    const own = f[prop];
    const hasOwn = Array.isArray(own) && own.length > 0;
    const hasDs = f.dataSet !== undefined;
    if (hasOwn && hasDs) list.error([...fp, 'dataSet'], 'choices_conflict', `A ${type} field takes either ${prop} or dataSet, not both.`);
    else if (!hasOwn && !hasDs) list.error([...fp, prop], 'choices_required', `A ${type} field needs ${prop} (at least one) or a dataSet link.`);
    const texts = new Map<string, number>();
    arr(own).forEach((o, oi) => {
      const t = isObj(o) ? str(prop === 'columns' ? o.name : o.text) : undefined;
      if (t === undefined) return;
      const k = t.trim().toLowerCase();
      if (texts.has(k)) list.error([...fp, prop, oi, prop === 'columns' ? 'name' : 'text'], 'duplicate_option', `${JSON.stringify(t)} appears twice in ${prop}; answers are stored by this text.`);
      else texts.set(k, oi);
    });
  }
  if (isObj(f.dataSet)) checkDataSet(f.dataSet, type, [...fp, 'dataSet'], opts, list);
  if (type === 'Members' && typeof f.group === 'string') {
    const found = findByName(opts.db, opts.workspaceId, f.group).filter((a) => a.type === 'Group');
    if (found.length === 0) list.error([...fp, 'group'], 'assignee_not_found', `No group is named ${JSON.stringify(f.group)}.`, 'list_groups shows the groups.');
  }
  if (type === 'LinkedChecklist' && typeof f.template === 'string') {
    const t = templateIdByLatestName(opts.db, opts.workspaceId, f.template.trim());
    if (t === undefined) list.error([...fp, 'template'], 'template_not_found', `No template is named ${JSON.stringify(f.template)}.`, 'list_templates shows the templates.');
  }
}

function checkDataSet(link: Record<string, J>, type: string, dp: PathPart[], opts: ValidateOptions, list: ViolationList): void {
  if (type !== 'Table') {
    if (link.columns !== undefined) list.error([...dp, 'columns'], 'invalid_value', 'columns belongs to a Table field linked to a Data Set.');
    if (link.prePopulateRows !== undefined) list.error([...dp, 'prePopulateRows'], 'invalid_value', 'prePopulateRows belongs to a Table field linked to a Data Set.');
  } else if (link.displayField !== undefined) list.error([...dp, 'displayField'], 'invalid_value', 'A Table shows columns, not a display field: use columns.');
  const name = str(link.name);
  if (!name) return;
  const ds = findDataSet(opts.db, opts.workspaceId, name);
  if (!ds) return void list.error([...dp, 'name'], 'data_set_not_found', `No Data Set is named ${JSON.stringify(name)}.`, 'Data Sets are named as in the Data Sets list (GET /v3/data-sets).');
  if (link.view === undefined || typeof link.view === 'string') {
    const view = findView(opts.db, ds.id, str(link.view));
    // A view deleted (or renamed) after templates linked it is allowed (legacy spec 4.8): a warning, not an error.
    if (!view && typeof link.view === 'string' && wasViewRemoved(opts.db, ds.id, link.view)) {
      list.warn([...dp, 'view'], 'data_set_link_removed', `Data Set ${JSON.stringify(ds.name)} no longer has the view ${JSON.stringify(link.view)} this field shows: it was deleted or renamed.`, 'Link the field to another view of the Data Set.');
    } else if (!view) list.error([...dp, 'view'], 'data_set_view_not_found', `Data Set ${JSON.stringify(ds.name)} has no view named ${JSON.stringify(link.view)}.`);
  }
  const fields = dataSetFields(opts.db, ds.id);
  if (typeof link.displayField === 'string' && type !== 'Table' && !findField(fields, link.displayField)) {
    list.error([...dp, 'displayField'], 'data_set_field_not_found', `Data Set ${JSON.stringify(ds.name)} has no field named ${JSON.stringify(link.displayField)}.`, `Its fields: ${fields.map((x) => x.name).join(', ')}.`);
  }
  arr(link.columns).forEach((c, ci) => {
    const fname = isObj(c) ? str(c.field) : undefined;
    if (fname && !findField(fields, fname)) list.error([...dp, 'columns', ci, 'field'], 'data_set_field_not_found', `Data Set ${JSON.stringify(ds.name)} has no field named ${JSON.stringify(fname)}.`, `Its fields: ${fields.map((x) => x.name).join(', ')}.`);
  });
}

function checkDueDate(t: Record<string, J>, ti: number, tasks: J[], refs: Map<string, RefEntry>, list: ViolationList): void {
  const d = t.dueDate;
  if (!isObj(d)) return;
  const dp: PathPart[] = ['tasks', ti, 'dueDate'];
  const rel = str(d.relativeTo);
  if (rel !== 'taskCompletion' && d.task !== undefined) list.error([...dp, 'task'], 'invalid_value', 'task is used only with relativeTo taskCompletion.');
  if (rel !== 'dateField' && d.field !== undefined) list.error([...dp, 'field'], 'invalid_value', 'field is used only with relativeTo dateField.');
  if (rel === 'taskCompletion') {
    if (d.task === undefined) return void list.error([...dp, 'task'], 'required', 'task is required when relativeTo is taskCompletion.');
    if (typeof d.task !== 'string') return;
    const target = refs.get(d.task);
    if (!target) return void list.error([...dp, 'task'], 'unknown_ref', `No task has the ref ${JSON.stringify(d.task)}.`);
    if (target.kind !== 'task') return void list.error([...dp, 'task'], 'wrong_ref_kind', `${JSON.stringify(d.task)} is a ${target.kind}; the due date follows a task's completion.`);
    if (target.node.isHeading === true) return void list.error([...dp, 'task'], 'wrong_ref_kind', `${JSON.stringify(d.task)} is a heading, which is never completed.`);
    if (target.task === ti) list.warn([...dp, 'task'], 'circular_reference', 'The task falls due after its own completion, so it never has a due date.');
  }
  if (rel === 'dateField') {
    if (d.field === undefined) return void list.error([...dp, 'field'], 'required', 'field is required when relativeTo is dateField.');
    if (typeof d.field !== 'string') return;
    const target = refs.get(d.field);
    if (!target) return void list.error([...dp, 'field'], 'unknown_ref', `No field has the ref ${JSON.stringify(d.field)}.`);
    if (target.kind !== 'field' || target.type !== 'Date') return void list.error([...dp, 'field'], 'wrong_ref_kind', `${JSON.stringify(d.field)} is not a Date field.`);
    if (target.node.mode === 'time') list.error([...dp, 'field'], 'wrong_ref_kind', `${JSON.stringify(d.field)} holds a time of day only, so no due date can follow from it.`);
  }
  void tasks;
}

/** Tasks due after each other's completion in a ring never fall due. */
function checkDueDateCycles(tasks: J[], refs: Map<string, RefEntry>, list: ViolationList): void {
  const next = new Map<number, number>();
  tasks.forEach((t, ti) => {
    if (!isObj(t) || !isObj(t.dueDate) || t.dueDate.relativeTo !== 'taskCompletion' || typeof t.dueDate.task !== 'string') return;
    const target = refs.get(t.dueDate.task);
    if (target?.kind === 'task' && target.task !== ti) next.set(ti, target.task);
  });
  for (const start of next.keys()) {
    const seen = new Set<number>([start]);
    let cur = next.get(start);
    while (cur !== undefined && !seen.has(cur)) {
      seen.add(cur);
      cur = next.get(cur);
    }
    if (cur === start) list.warn(['tasks', start, 'dueDate', 'task'], 'circular_reference', 'These due-date rules wait on each other in a ring, so none of these tasks ever falls due.');
  }
}

function checkConditions(doc: Record<string, J>, tasks: J[], refs: Map<string, RefEntry>, opts: ValidateOptions, list: ViolationList): void {
  // depends: visibility node -> nodes whose answers or visibility it depends on
  const depends = new Map<string, Set<string>>();
  const edge = (a: string, b: string) => {
    let s = depends.get(a);
    if (!s) depends.set(a, (s = new Set()));
    s.add(b);
  };
  const nodeOf = (e: RefEntry) => (e.kind === 'task' ? `t${e.task}` : `f${e.task}.${e.field}`);
  tasks.forEach((t, ti) => isObj(t) && arr(t.fields).forEach((_, fi) => edge(`f${ti}.${fi}`, `t${ti}`)));
  const condEdges: { ci: number; from: string; to: string }[] = [];

  arr(doc.conditions).forEach((c, ci) => {
    if (!isObj(c)) return;
    const cp: PathPart[] = ['conditions', ci];
    const action = str(c.action);
    const targets: RefEntry[] = [];
    arr(c.targets).forEach((r, ri) => {
      if (typeof r !== 'string') return;
      const e = refs.get(r);
      if (!e) list.error([...cp, 'targets', ri], 'unknown_ref', `No task or field has the ref ${JSON.stringify(r)}.`);
      else if (e.kind !== 'task' && e.kind !== 'field') list.error([...cp, 'targets', ri], 'wrong_ref_kind', `${JSON.stringify(r)} is a ${e.kind}; conditions show or hide tasks and fields.`);
      else targets.push(e);
    });
    const clauses = arr(c.when);
    let unmatchable = 0;
    clauses.forEach((w, wi) => {
      if (!isObj(w)) return;
      const wp: PathPart[] = [...cp, 'when', wi];
      if (typeof w.field !== 'string') return;
      const e = refs.get(w.field);
      if (!e) return void list.error([...wp, 'field'], 'unknown_ref', `No field has the ref ${JSON.stringify(w.field)}.`);
      if (e.kind !== 'field') return void list.error([...wp, 'field'], 'wrong_ref_kind', `${JSON.stringify(w.field)} is a ${e.kind}; a condition tests a field's answer.`);
      const type = e.type ?? '';
      if (!ANSWERABLE.has(type)) return void list.error([...wp, 'field'], 'wrong_ref_kind', `A ${type} field shows content and has no answer to test.`);
      const op = str(w.operator);
      const info = op ? operatorInfo(op) : undefined;
      if (info && !info.contentTypes.includes(type)) {
        list.error([...wp, 'operator'], 'invalid_operator', `${op} does not apply to a ${type} field.`, `A ${type} field takes ${operatorsFor(type).join(', ')}.`);
      } else if (info) {
        if (info.takesValue && w.value === undefined) list.error([...wp, 'value'], 'required', `value is required with ${op}.`);
        if (!info.takesValue && w.value !== undefined) list.error([...wp, 'value'], 'invalid_value', `${op} takes no value.`);
        if (info.takesValue && w.value !== undefined && !valueCanMatch(e, w.value, opts)) {
          unmatchable++;
          list.warn([...wp, 'value'], action === 'show' ? 'never_shown' : 'never_matches', `${JSON.stringify(w.value)} is not a choice of ${JSON.stringify(w.field)}, so this clause never holds${action === 'show' ? ' and its targets may never be shown' : ''}.`, 'Use the option text exactly as the field lists it.');
        }
      }
      // The tested field sits inside a target: once hidden it cannot be answered or changed.
      const inside = targets.find((t) => (t.kind === 'task' ? t.task === e.task : t.task === e.task && t.field === e.field));
      if (inside && op !== 'isEmpty' && op !== 'isNotEmpty') {
        if (action === 'show') list.warn([...wp, 'field'], 'never_shown', `${JSON.stringify(w.field)} is inside a target of this condition: it stays hidden until answered, so it can never be answered.`, 'Test a field outside the tasks and fields this condition shows.');
        if (action === 'hide') list.warn([...wp, 'field'], 'never_restored', `${JSON.stringify(w.field)} is inside a target of this condition: once hidden its answer cannot be changed back, so the targets never come back.`, 'Test a field outside the tasks and fields this condition hides.');
      }
      for (const t of targets) if (t !== inside) condEdges.push({ ci, from: nodeOf(t), to: nodeOf(e) });
    });
    const match = c.match === 'any' ? 'any' : 'all';
    const never = clauses.length > 0 && (match === 'all' ? unmatchable > 0 : unmatchable === clauses.length);
    if (never && action === 'show' && targets.length) list.warn([...cp, 'targets'], 'never_shown', 'This condition can never match, so its targets are never shown.');
  });

  for (const e of condEdges) edge(e.from, e.to);
  const reported = new Set<number>();
  for (const e of condEdges) {
    if (reported.has(e.ci)) continue;
    // e.to reaches e.from again? Then e.from's visibility depends on itself.
    if (reaches(depends, e.to, e.from)) {
      reported.add(e.ci);
      list.warn(['conditions', e.ci], 'circular_reference', 'This condition depends on a task or field whose visibility depends back on its own targets; the checklist may never settle.', 'Break the ring: let conditions test fields that no other condition in the ring shows or hides.');
    }
  }
}

function reaches(graph: Map<string, Set<string>>, from: string, to: string): boolean {
  const stack = [from];
  const seen = new Set<string>();
  while (stack.length) {
    const n = stack.pop()!;
    if (n === to) return true;
    if (seen.has(n)) continue;
    seen.add(n);
    for (const m of graph.get(n) ?? []) stack.push(m);
  }
  return false;
}

function valueCanMatch(field: RefEntry, value: unknown, opts: ValidateOptions): boolean {
  const type = field.type;
  const prop = type === 'SubTasks' ? 'items' : 'options';
  if (type === 'DropDown' || type === 'MultiChoice' || type === 'SubTasks') {
    const own = arr(field.node[prop]);
    if (!own.length) return true; // linked to a Data Set: records can change
    return own.some((o) => isObj(o) && typeof o.text === 'string' && o.text.trim().toLowerCase() === String(value).trim().toLowerCase());
  }
  if (type === 'Members') return typeof value === 'string' && findByName(opts.db, opts.workspaceId, value).some((a) => a.type === 'TeamMember');
  return true;
}

function checkDataSetLinks(tasks: J[], latest: TemplateDocument, list: ViolationList): void {
  const before = new Map<string, { dataSet?: { name?: string; view?: string } }>();
  for (const t of latest.tasks ?? []) for (const f of t.fields ?? []) if (f.id) before.set(f.id.toLowerCase(), f as { dataSet?: { name?: string; view?: string } });
  tasks.forEach((t, ti) => {
    if (!isObj(t)) return;
    arr(t.fields).forEach((f, fi) => {
      if (!isObj(f) || typeof f.id !== 'string') return;
      const old = before.get(f.id.toLowerCase())?.dataSet;
      if (!old) return;
      const now = isObj(f.dataSet) ? f.dataSet : undefined;
      const fp: PathPart[] = ['tasks', ti, 'fields', fi];
      if (!now) list.warn(fp, 'data_set_link_removed', `This field was linked to Data Set ${JSON.stringify(old.name)}; the new version drops the link.`, 'Upgraded checklists keep answers only where the option text matches a record\'s displayed words.');
      else if (String(now.name).toLowerCase() !== String(old.name).toLowerCase() || String(now.view ?? '').toLowerCase() !== String(old.view ?? '').toLowerCase())
        list.warn([...fp, 'dataSet'], 'data_set_link_removed', `This field's link to Data Set ${JSON.stringify(old.name)}${old.view ? ` (view ${JSON.stringify(old.view)})` : ''} is replaced.`, 'Upgraded checklists match answers by displayed words.');
    });
  });
}
