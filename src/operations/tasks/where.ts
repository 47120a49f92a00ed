// Where a task route lives: under a checklist (spec v3 4.3, with the MCP tools of its table)
// or at /v3/tasks/{taskKey} for a standalone task (EMULATOR.md: the same suffixes, no tools:
// the spec names none). Every suffix operation is declared once and built for both.
import { z } from 'zod';
import type { Ctx } from '../../context';
import { READ, REMOVE, defineOperation, mixed, type Budget, type Declared, type Fidelity, type Operation, type Refusal } from '../define';
import { guid } from '../input-kinds';
import { findChecklistTask, findStandaloneTask, type TaskTarget } from '../../domain/tasks/target';

export type WhereKind = 'checklist' | 'standalone';

export const checklistKeyInput = () => guid('a checklist key (GUID)').describe('The checklist key (GUID)');
export const taskKeyInput = () => guid('a task key (GUID)').describe('The task key (GUID)');

const BASE: Record<WhereKind, string> = { checklist: '/v3/checklists/:checklistKey/tasks/:taskKey', standalone: '/v3/tasks/:taskKey' };
const TAG: Record<WhereKind, string> = { checklist: 'Tasks', standalone: 'Standalone tasks' };

/** The path keys of each place. */
const keyShape = (w: WhereKind): z.ZodRawShape => (w === 'checklist' ? { checklistKey: checklistKeyInput(), taskKey: taskKeyInput() } : { taskKey: taskKeyInput() });

/** The lookup refusals of each place (4.3: another checklist's task, or an attached standalone task, is 404 TASK_NOT_FOUND). */
const LOOKUP: Record<WhereKind, Refusal[]> = {
  checklist: ['404 CHECKLIST_NOT_FOUND', '404 TASK_NOT_FOUND'],
  standalone: ['404 TASK_NOT_FOUND'],
};

/** The task the path names, looked up when the handler asks (some bodies are checked first: 400 before 404). */
function finder(w: WhereKind, ctx: Ctx, input: { checklistKey?: unknown; taskKey?: unknown }): () => TaskTarget {
  const taskKey = String(input.taskKey);
  return w === 'checklist' ? () => findChecklistTask(ctx, String(input.checklistKey), taskKey) : () => findStandaloneTask(ctx, taskKey);
}

/** Operation id: `completeTask` for a checklist task, `completeStandaloneTask` for the standalone twin. */
const opId = (w: WhereKind, name: string) => (w === 'checklist' ? name : /Task/.test(name) ? name.replace(/Task/, 'StandaloneTask') : `${name}OfStandaloneTask`);
export const whereText = (w: WhereKind) => (w === 'checklist' ? 'a checklist task' : 'a standalone task');

type Common<S extends z.ZodRawShape> = Omit<Declared<S>, 'id' | 'tool' | 'noTool' | 'path' | 'tag' | 'handler' | 'input' | 'refusals' | 'fidelity' | 'budget'>;

/** Where most task routes' behaviour comes from: 4.3 names them, docs/tasks.md shows their bodies. */
const BODIES_NOT_SHOWN = mixed('4.3', 'docs/tasks.md', 'request and response bodies beyond the names the spec gives (4.3: not shown)');

export interface TaskOperationSpec<S extends z.ZodRawShape> extends Common<S> {
  /** The checklist operation's id; the standalone twin's is derived (opId). */
  id: string;
  /** The MCP tool of the 4.3 table (checklist tasks only); absent: `noTool` says why. */
  tool?: string;
  noTool?: string;
  /** Path after the task, e.g. `/complete`. */
  suffix: string;
  /** The properties besides the path keys, each described (built on first use, like every operation's). */
  input: () => S;
  /** Refusals besides the lookup (404) ones. */
  refusals: Refusal[];
  /** Default: 4.3 names the route, docs/tasks.md shows the bodies. */
  fidelity?: Fidelity;
  /** Default: standard. */
  budget?: Budget;
  handler: (ctx: Ctx, input: z.infer<z.ZodObject<S>>, task: () => TaskTarget) => unknown;
}

/** 4.3 shows the checklist task routes; their standalone twins under /v3/tasks/{taskKey} are named (4.7) but not shown. */
function standaloneFidelity(f: Fidelity): Fidelity {
  const twin = 'the standalone twin of the 4.3 route (4.7 names /v3/tasks/{taskKey}; its suffix routes are not shown)';
  return { mark: f.mark === 'designed' ? 'designed' : 'mixed', source: `${f.source}; docs/tasks.md`, designed: f.designed ? `${twin}; ${f.designed}` : twin };
}

const NO_TOOL_STANDALONE = 'The spec names MCP tools only for checklist task routes (4.3, 4.6 rule 7); standalone task routes are REST only.';

/** One suffix operation at one place. */
export function taskOperation<S extends z.ZodRawShape>(w: WhereKind, spec: TaskOperationSpec<S>): Operation {
  const { suffix, tool, noTool, refusals, handler, input, id, fidelity = BODIES_NOT_SHOWN, budget = 'standard', ...rest } = spec;
  return defineOperation({
    ...rest,
    id: opId(w, id),
    fidelity: w === 'checklist' ? fidelity : standaloneFidelity(fidelity),
    budget,
    tag: TAG[w],
    path: `${BASE[w]}${suffix}`,
    ...(w === 'checklist' ? (tool ? { tool } : { noTool }) : { noTool: NO_TOOL_STANDALONE }),
    input: () => ({ ...keyShape(w), ...input() }),
    refusals: [...LOOKUP[w], ...refusals],
    handler: (ctx, raw) => handler(ctx, raw as z.infer<z.ZodObject<S>>, finder(w, ctx, raw)),
  });
}

/** A call with no input but the path keys: a GET of one thing of the task, or a DELETE that clears it. */
export type TaskThingSpec = Omit<TaskOperationSpec<z.ZodRawShape>, 'input' | 'handler' | 'annotations' | 'query' | 'bodyAs' | 'method'> & { run: (ctx: Ctx, task: TaskTarget) => unknown };

const thing = (method: 'GET' | 'DELETE', annotations: Operation['annotations'], w: WhereKind, { run, ...spec }: TaskThingSpec): Operation =>
  taskOperation(w, { ...spec, method, input: () => ({}), annotations, handler: (ctx, _input, t) => run(ctx, t()) });

/** Reads one thing of the task (its due date, assignees, tags, comments, fields, snooze). */
export const taskRead = (w: WhereKind, spec: TaskThingSpec) => thing('GET', READ, w, spec);
/** Clears one thing of the task (its due date, assignees, your snooze). */
export const taskClear = (w: WhereKind, spec: TaskThingSpec) => thing('DELETE', REMOVE, w, spec);
