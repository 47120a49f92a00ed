// Net changes grouped by resource (docs/checkpoints.md "What a diff says"): what an agent
// evaluation compares with what it asked for. Keys, not internal ids; who as a user
// reference with the member id; times ISO 8601 UTC; absent values left out.
import type { Db } from '../store/open';
import { groupNames, memberNames, taskActivitySince } from '../rows/checkpoints';
import type { Json, NetChange } from './fold';

export type Entry = Record<string, unknown>;

export interface Groups {
  checklists: Entry[];
  tasks: Entry[];
  fields: Entry[];
  assignments: Entry[];
  dueDates: Entry[];
  comments: Entry[];
  tags: Entry[];
  snoozes: Entry[];
  templates: Entry[];
  dataSets: Entry[];
  schedules: Entry[];
  webhooks: Entry[];
}

export const GROUP_NAMES: (keyof Groups)[] = ['checklists', 'tasks', 'fields', 'assignments', 'dueDates', 'comments', 'tags', 'snoozes', 'templates', 'dataSets', 'schedules', 'webhooks'];

/** Where the names are looked up: the database after (and, comparing two files, the one before), and the activity feed's mark. */
export interface Lookup {
  db: Db;
  /** The schema holding the state after ('main'). */
  after: string;
  /** The schema holding the state before, when there is one (two files compared). */
  before?: string;
  /** The activity feed's last id at the checkpoint: who did what is read after it. */
  activitySeq: number;
}

const iso = (ms: unknown): string | undefined => (typeof ms === 'number' ? new Date(ms).toISOString() : undefined);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
/** An object without its undefined properties (null never leaves the API). */
const clean = (o: Entry): Entry => {
  for (const k of Object.keys(o)) if (o[k] === undefined || o[k] === null) delete o[k];
  return o;
};
const parseJson = (v: unknown): unknown => {
  if (typeof v !== 'string') return undefined;
  try {
    return JSON.parse(v);
  } catch {
    return v;
  }
};

const STATUS_ACTIONS = new Set(['task.completed', 'task.uncompleted', 'task.notApplicable', 'task.notApplicableCleared']);

export function group(changes: NetChange[], look: Lookup): Groups {
  const g: Groups = { checklists: [], tasks: [], fields: [], assignments: [], dueDates: [], comments: [], tags: [], snoozes: [], templates: [], dataSets: [], schedules: [], webhooks: [] };
  const createdCl = new Set<number>();
  const deletedCl = new Set<number>();
  const deletedSets = new Set<string>();
  /** Tasks gone since: what hung off them went with them (a cascade logs it after the task, when its checklist is gone too). */
  const deletedTasks = new Set<number>();
  for (const c of changes) {
    if (c.tbl === 'tasks' && !c.new) deletedTasks.add(c.old!._task as number);
    if (c.tbl === 'checklists' && !c.old) createdCl.add(c.new!._cl as number);
    if (c.tbl === 'checklists' && !c.new) deletedCl.add(c.old!._cl as number);
    if (c.tbl === 'data_sets' && !c.new) deletedSets.add(c.old!.key as string);
  }
  const members: number[] = [];
  const groups: number[] = [];
  /** Filled in at the end, once every member named is known. */
  const who: { entry: Entry; prop: string; id: number }[] = [];
  const by = (entry: Entry, prop: string, id: unknown) => {
    if (typeof id !== 'number') return;
    members.push(id);
    who.push({ entry, prop, id });
  };
  const activity = new Map<number, ReturnType<typeof taskActivitySince>>();
  const activityOf = (taskId: unknown) => {
    if (typeof taskId !== 'number') return [];
    let a = activity.get(taskId);
    if (!a) activity.set(taskId, (a = taskActivitySince(look.db, taskId, look.activitySeq, look.after)));
    return a;
  };
  /** The latest activity of a task with one of `actions` since the checkpoint: who and when. */
  const latest = (taskId: unknown, actions: (a: string) => boolean) => activityOf(taskId).find((a) => actions(a.action));
  const childOf = (j: Json): { gone: boolean; created: boolean } => ({ gone: deletedCl.has(j._cl as number) || deletedTasks.has(j._task as number), created: createdCl.has(j._cl as number) });
  const where = (j: Json): Entry => ({ checklistKey: str(j.checklist), taskKey: str(j.task) });

  for (const c of changes) {
    const j = (c.new ?? c.old)!;
    const { old: o, new: n } = c;
    switch (c.tbl) {
      case 'checklists': {
        const base = { checklistKey: j.key, name: j.name };
        if (!o) {
          const e = clean({ change: 'created', ...base, templateKey: j.template, templateVersion: j.templateVersion, status: j.status, createdAt: iso(j.createdAt) });
          by(e, 'createdBy', j.createdBy);
          g.checklists.push(e);
          break;
        }
        if (!n) {
          g.checklists.push(clean({ change: 'deleted', ...base }));
          break;
        }
        if (o.archived !== n.archived) g.checklists.push(clean({ change: n.archived ? 'archived' : 'unarchived', ...base }));
        if (o.name !== n.name) g.checklists.push(clean({ change: 'renamed', checklistKey: j.key, before: o.name, after: n.name }));
        if (o.status !== n.status) g.checklists.push(clean({ change: n.status === 'Complete' ? 'completed' : o.status === 'Complete' ? 'reopened' : 'status', ...base, before: o.status, after: n.status }));
        if (o.templateVersion !== n.templateVersion) g.checklists.push(clean({ change: 'upgraded', ...base, before: o.templateVersion, after: n.templateVersion }));
        if (o.dueAt !== n.dueAt) g.dueDates.push(clean({ checklistKey: j.key, before: iso(o.dueAt), after: iso(n.dueAt) }));
        break;
      }
      case 'tasks': {
        const place = { created: createdCl.has(j._cl as number) };
        if (deletedCl.has(j._cl as number)) break;
        const base = { checklistKey: str(j.checklist), taskKey: j.key, name: j.name };
        const status = (e: Entry, s: unknown) => {
          if (s === 'Complete') {
            e.at = iso(n!.completedAt);
            by(e, 'by', n!.completedBy);
          } else if (s === 'NotApplicable') {
            e.at = iso(n!.notApplicableAt);
            by(e, 'by', n!.notApplicableBy);
          } else {
            const a = latest(j._task, (x) => STATUS_ACTIONS.has(x));
            if (a) {
              e.at = iso(a.created_at);
              by(e, 'by', a.member_id);
            }
          }
        };
        if (!o) {
          if (!place.created) g.tasks.push(clean({ change: 'created', ...base, status: n!.status }));
          if (place.created && n!.status !== 'Incomplete' && !n!.heading) {
            const e = clean({ change: 'status', ...base, after: n!.status });
            status(e, n!.status);
            g.tasks.push(e);
          }
          const due = typeof n!.dueAt === 'number';
          if (due && !place.created) g.dueDates.push(clean({ checklistKey: base.checklistKey, taskKey: j.key, after: iso(n!.dueAt) }));
          if (due && place.created) {
            const a = latest(j._task, (x) => x.startsWith('task.dueDate'));
            if (a) g.dueDates.push(clean({ checklistKey: base.checklistKey, taskKey: j.key, after: iso(n!.dueAt), at: iso(a.created_at) }));
          }
          break;
        }
        if (!n) {
          g.tasks.push(clean({ change: 'deleted', ...base }));
          break;
        }
        if (o.status !== n.status && !n.heading) {
          const e = clean({ change: 'status', ...base, before: o.status, after: n.status });
          status(e, n.status);
          g.tasks.push(e);
        }
        if (o.name !== n.name) g.tasks.push(clean({ change: 'renamed', checklistKey: base.checklistKey, taskKey: j.key, before: o.name, after: n.name }));
        if (o.dueAt !== n.dueAt) {
          const e = clean({ checklistKey: base.checklistKey, taskKey: j.key, before: iso(o.dueAt), after: iso(n.dueAt) });
          const a = latest(j._task, (x) => x.startsWith('task.dueDate'));
          if (a) {
            e.at = iso(a.created_at);
            by(e, 'by', a.member_id);
          }
          g.dueDates.push(e);
        }
        break;
      }
      case 'field_values': {
        if (childOf(j).gone) break;
        const before = parseJson(o?.value);
        const after = parseJson(n?.value);
        if ((before === undefined || before === null) && (after === undefined || after === null)) break;
        const e = clean({ ...where(j), fieldKey: j.field, before, after, at: n ? iso(n.at) : undefined });
        if (n) by(e, 'by', n.by);
        g.fields.push(e);
        break;
      }
      case 'task_assignees': {
        const place = childOf(j);
        if (place.gone) break;
        // A new checklist's tasks come with the template's assignees: only the ones someone assigned since are changes.
        const a = latest(j._task, (x) => x === (n ? 'task.assigned' : 'task.unassigned'));
        if (place.created && !a) break;
        const type = j.type as string;
        const id = j.id as number;
        (type === 'Group' ? groups : members).push(id);
        const e = clean({ change: n ? 'added' : 'removed', ...where(j), assignee: { type, id }, at: a ? iso(a.created_at) : undefined });
        if (a) by(e, 'by', a.member_id);
        g.assignments.push(e);
        break;
      }
      case 'comments': {
        if (childOf(j).gone) break;
        const e = clean({ change: n ? 'added' : 'deleted', ...where(j), commentId: j.id, text: j.text, at: iso(j.createdAt) });
        by(e, 'by', j.author);
        g.comments.push(e);
        break;
      }
      case 'snoozes': {
        if (childOf(j).gone) break;
        const e = clean({ change: !o ? 'set' : !n ? 'cleared' : 'changed', ...where(j), before: iso(o?.until), after: iso(n?.until) });
        by(e, 'member', j.member);
        g.snoozes.push(e);
        break;
      }
      case 'tags':
        g.tags.push(clean(!o ? { change: 'created', tag: j.name } : !n ? { change: 'deleted', tag: j.name } : { change: 'renamed', before: o.name, after: n.name }));
        break;
      case 'tag_assignments': {
        if (childOf(j).gone) break;
        g.tags.push(clean({ change: n ? 'added' : 'removed', tag: j.tag, targetType: j.targetType, targetKey: j.target, checklistKey: str(j.checklist) }));
        break;
      }
      case 'templates': {
        const base = { templateKey: j.key, name: j.name };
        if (!o) g.templates.push(clean({ change: 'created', ...base }));
        else if (!n) g.templates.push(clean({ change: 'deleted', ...base }));
        else if (o.archived !== n.archived) g.templates.push(clean({ change: n.archived ? 'archived' : 'unarchived', ...base }));
        break;
      }
      case 'template_versions': {
        const e = clean({ change: n ? 'published' : 'versionDeleted', templateKey: j.template, version: j.version, name: j.name, at: iso(j.at) });
        by(e, 'by', j.by);
        g.templates.push(e);
        break;
      }
      case 'data_sets':
        g.dataSets.push(clean(!o ? { change: 'created', dataSetKey: j.key, name: j.name } : !n ? { change: 'deleted', dataSetKey: j.key, name: j.name } : { change: 'renamed', dataSetKey: j.key, before: o.name, after: n.name }));
        break;
      case 'data_set_records': {
        if (!n && deletedSets.has(j.dataSet as string)) break;
        g.dataSets.push(clean({ change: !o ? 'recordCreated' : !n ? 'recordDeleted' : 'recordUpdated', dataSetKey: j.dataSet, dataSetName: j.dataSetName, recordKey: j.key, before: parseJson(o?.values), after: parseJson(n?.values) }));
        break;
      }
      case 'schedules': {
        const view = (s: Json | undefined) => s && clean({ name: s.name, templateKey: s.template, timeZone: s.timeZone, start: s.start, recurrence: parseJson(s.recurrence) });
        const e = clean({ change: !o ? 'created' : !n ? 'deleted' : 'changed', scheduleId: j.id, name: j.name, templateKey: j.template, before: o && n ? view(o) : undefined, after: o && n ? view(n) : !o ? view(n) : undefined });
        g.schedules.push(e);
        break;
      }
      case 'webhooks': {
        const view = (w: Json | undefined) => w && clean({ eventType: w.eventType, targetUrl: w.targetUrl, active: w.active === 1 });
        g.webhooks.push(
          clean({
            change: !o ? 'created' : !n ? 'deleted' : 'changed',
            subscriptionId: j.id,
            api: j.api,
            eventType: j.eventType,
            targetUrl: j.targetUrl,
            templateKey: j.template,
            taskKey: j.task,
            fieldKey: j.field,
            before: o && n ? view(o) : undefined,
            after: o && n ? view(n) : undefined,
          }),
        );
        break;
      }
    }
  }
  // Names: looked up after; a member gone since (two files compared) before.
  const names = memberNames(look.db, members, look.after);
  if (look.before) for (const [id, v] of memberNames(look.db, members.filter((m) => !names.has(m)), look.before)) names.set(id, v);
  for (const w of who) w.entry[w.prop] = { id: w.id, ...(names.get(w.id) ?? {}) };
  const gnames = groupNames(look.db, groups, look.after);
  for (const e of g.assignments) {
    const a = e.assignee as { type: string; id: number; name?: string };
    const name = a.type === 'Group' ? gnames.get(a.id) : names.get(a.id)?.name ?? memberNames(look.db, [a.id], look.after).get(a.id)?.name;
    if (name) a.name = name;
  }
  return g;
}
