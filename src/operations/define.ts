import { z } from 'zod';
import type { Ctx } from '../context';
import { lazy } from '../lazy';

export type Budget = 'standard' | 'cheap';
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A handler may return plain data (answered with the op's status) or a Reply. */
export class Reply {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
  ) {}
}

/**
 * A refusal the operation itself can give, as `'<status> <CODE>'` (e.g. `'404 CHECKLIST_NOT_FOUND'`).
 * The pipeline's own refusals (key, region, budget, body, validation, actor kind, idempotency)
 * are derived from the operation's other facts and need not be listed (src/contract/refusals.ts).
 */
export type Refusal = `${number} ${string}`;

/** A success answer other than the operation's main one (e.g. 202 with Location and Retry-After). */
export interface OtherSuccess {
  status: number;
  description: string;
  /** Response headers it carries, with what each means. */
  headers?: Record<string, string>;
}

/**
 * Where an operation's behaviour comes from, for integrators who will switch to the service
 * (docs/fidelity.md, generated from these): `documented` follows the spec section named;
 * `designed` is our decision where the spec shows nothing (the docs page says what and why);
 * `mixed`: the spec names the route and some rules, we designed the rest.
 */
export interface Fidelity {
  mark: 'documented' | 'designed' | 'mixed';
  /** The spec section(s) and/or the docs page, e.g. "spec v3 4.3; docs/tasks.md". */
  source: string;
  /** What we designed (designed and mixed only), in one sentence. */
  designed?: string;
}

export const documented = (section: string): Fidelity => ({ mark: 'documented', source: `spec v3 ${section}` });
export const designed = (page: string, what: string): Fidelity => ({ mark: 'designed', source: page, designed: what });
export const mixed = (section: string, page: string, what: string): Fidelity => ({ mark: 'mixed', source: `spec v3 ${section}; ${page}`, designed: what });

export interface Operation<S extends z.ZodRawShape = z.ZodRawShape> {
  /** operationId in OpenAPI; unique. */
  id: string;
  /** MCP tool name where the spec names one (or where we give one: docs/architecture.md). */
  tool?: string;
  /** Why the operation has no MCP tool (the spec names the tools); required when `tool` is absent. */
  noTool?: string;
  method: HttpMethod;
  /** itty-router path, e.g. /v3/members/:memberId */
  path: string;
  /** The operation's area: an OpenAPI tag (src/contract/tags.ts lists them). */
  tag?: string;
  summary: string;
  /** Where its behaviour comes from: the spec, our design, or both (docs/fidelity.md). */
  fidelity: Fidelity;
  /** What the operation does, in the spec's words where it has them. */
  description?: string;
  /** One shape for path, query and body properties (and MCP arguments); every property `.describe()`d. */
  input: S;
  /** Which properties of `input` come from the query string; path properties come from `path`; the rest is body. */
  query?: (keyof S & string)[];
  /** The whole JSON body is this one property (a template document); MCP takes it under the same name. */
  bodyAs?: keyof S & string;
  /**
   * Rules across the body's properties that the server enforces (exactly one of two, one only
   * with another), as JSON Schema keywords added to the request body's schema in the document
   * (`not`, `anyOf`, `dependentRequired`). Property schemas cannot say them; the domain checks
   * them, and test/contract-body-rules.test.ts holds the server to each rule both ways.
   */
  bodyRule?: Record<string, unknown>;
  /** The success body (the main status's); absent only when that status is 204. */
  output?: z.ZodType;
  /** The success body's media type when it is not JSON (the CSV export: text/csv). */
  contentType?: string;
  /** Refusals the operation itself gives (the pipeline's are derived). */
  refusals?: Refusal[];
  /**
   * Properties a refusal's error object carries beyond the envelope's own (spec v3 7: "extra members
   * by case"), by the refusal that carries them, e.g. `{'409 CONFLICT': {templates: ...}}`; each is
   * optional in the declared envelope of that status. A thunk, built with the document or the check.
   */
  refusalDetails?: () => Partial<Record<Refusal, z.ZodRawShape>>;
  /** Success answers besides the main one, with the headers they carry. */
  otherSuccess?: OtherSuccess[];
  budget: Budget;
  annotations: { readOnlyHint: boolean; idempotentHint: boolean; destructiveHint: boolean };
  /**
   * 'member': a workspace key is refused with API_KEY_ACTS_AS_WORKSPACE. 'admin': Administrator or
   * workspace key only; any other member key is refused 403 FORBIDDEN with `adminRefusal`, before any lookup.
   */
  actor?: 'any' | 'member' | 'admin';
  /** With actor 'admin' (required then): the text of the 403 FORBIDDEN a member key that is not an Administrator gets. */
  adminRefusal?: string;
  /**
   * A refusal made before the input is validated, from the raw arguments (which may be of any
   * type): the one exception to "validated before anything it names is looked up", a write to a
   * system Data Set (legacy 3, 7: "any write gives 403", whatever the body).
   */
  refuseFirst?: (ctx: Ctx, raw: Record<string, unknown>) => void;
  /** Success status when the handler returns plain data; 204 means no body. */
  status?: number;
  /**
   * Whether the MCP tool takes `idempotencyKey` as an argument (spec v3 4.6 rule 4). Default:
   * every write tool that is not read-only does (src/contract/tool.ts `takesIdempotencyKey`).
   */
  idempotencyArg?: boolean;
  /**
   * A write whose call changed no row is a read: it has no effect outside the database, and the
   * same call again, with the database as it was, gives the same answer and writes nothing
   * ("already complete answers 200 and writes nothing"). Such an answer is remembered like a
   * read's until the database changes (src/pipeline/answer-memo.ts). And the declaration says
   * more: a call that wrote leaves the state its repeat finds already reached, and what it
   * answered is what that repeat answers (the view of the state it left, to an asker whose
   * rights the write did not touch), so that answer is remembered for the state it left.
   */
  unchangedIsRead?: true;
  handler: (ctx: Ctx, input: z.infer<z.ZodObject<S>>) => unknown;
}

/**
 * An operation as its area declares it: `input` and `output` are thunks, so that a start
 * builds none of the table's zod shapes (the route table needs only the other facts); each
 * is built on its first read, by the operation's first call or document, then kept.
 */
export type Declared<S extends z.ZodRawShape = z.ZodRawShape> = Omit<Operation<S>, 'input' | 'output'> & {
  input: () => S;
  output?: () => z.ZodType;
};

export function defineOperation<S extends z.ZodRawShape>(op: Declared<S>): Operation {
  const { input, output, ...facts } = op;
  const shape = lazy(input);
  const out = output && lazy(output);
  return Object.defineProperties(facts, {
    input: { enumerable: true, get: shape },
    output: { enumerable: true, get: () => out?.() },
  }) as unknown as Operation;
}

// MCP tool hints, by MCP's definitions: readOnlyHint "does not modify its environment";
// destructiveHint false "performs only additive updates", so anything that replaces, overwrites or
// removes what was there is destructive (clients ask a person before such calls); idempotentHint
// "repeated calls with the same arguments have no additional effect". test/mcp-annotations.test.ts
// checks every operation against these rules.
export const READ = { readOnlyHint: true, idempotentHint: true, destructiveHint: false } as const;
/** A write that names a state and adds it (complete, tag, archive): harmless to repeat (spec v3 4.3). */
export const SET = { readOnlyHint: false, idempotentHint: true, destructiveHint: false } as const;
/** PUT or PATCH (or a POST that overwrites, such as a bulk snooze or a CSV replace): replaces the whole of what it addresses, or overwrites the values sent (spec v3 4.1 rule 8). */
export const REPLACE = { readOnlyHint: false, idempotentHint: true, destructiveHint: true } as const;
export const CREATE = { readOnlyHint: false, idempotentHint: false, destructiveHint: false } as const;
/** A create that may first remove what exists (a bulk replace, an upgrade that drops values). */
export const CREATE_REPLACING = { readOnlyHint: false, idempotentHint: false, destructiveHint: true } as const;
/** DELETE (or a POST that cancels, such as skipping a schedule run): removes, clears or ends something. */
export const REMOVE = { readOnlyHint: false, idempotentHint: true, destructiveHint: true } as const;

/** The operation with `facts` added or replaced; its shapes stay unbuilt (a spread would build them). */
export const withFacts = (op: Operation, facts: Partial<Operation>): Operation =>
  Object.defineProperties({}, { ...Object.getOwnPropertyDescriptors(op), ...Object.getOwnPropertyDescriptors(facts) }) as Operation;

/**
 * Set (to true) on the raw input of a REST request that sent no body at all, so an operation
 * that answers "no body" apart from an empty object can tell (spec v3 4.4 upgrade: "no body" and
 * "neither" are different rows). A symbol: input validation and request hashing never see it.
 */
export const NO_BODY: unique symbol = Symbol('no body');

/**
 * On the raw input of a REST request whose body could not be read as a JSON object: the 400 it
 * gets, thrown after the key's kind and the operation's `refuseFirst` (spec v3 4.4 rule 5: "a
 * write refused for permission is refused before the document is read"; 5.6: webhook routes
 * refuse before any lookup), so a permission refusal never depends on the body.
 */
export const BAD_BODY: unique symbol = Symbol('bad body');

export const pathParams = (path: string): string[] => [...path.matchAll(/:(\w+)/g)].map((m) => m[1]);
export const isWrite = (op: Operation): boolean => op.method !== 'GET';
