// Each operation compiled once: every fact a transport derives from its declaration
// (where its inputs travel, all its refusals, the input validator, the string coercers,
// its MCP tool), kept together. Each fact is built on first use, so a start-up builds
// none of them for the whole table, and a route never called never pays for its schemas.
import { z } from 'zod';
import type { Operation } from '../operations/define';
import { partitionFor, type Partition } from './partition';
import { refusalDetailsFor, refusalsFor } from './refusals';
import { errorEnvelope } from '../errors';
import { coercerOf, type Coercer } from './coerce';
import { toolDefFor, type ToolDef } from './tool';

export class CompiledOperation {
  private _partition?: Partition;
  private _refusals?: Map<number, Set<string>>;
  private _input?: z.ZodObject;
  private _tool?: ToolDef;
  private _details?: Map<number, z.ZodRawShape>;
  private readonly errorSchemas = new Map<number, z.ZodType>();
  private readonly coercers = new Map<string, Coercer>();

  constructor(readonly op: Operation) {}

  /** Path, query and body properties (REST reader, OpenAPI, tools). */
  get partition(): Partition {
    return (this._partition ??= partitionFor(this.op));
  }

  /** Every refusal, the path's derived ones included, by status. */
  get refusals(): Map<number, Set<string>> {
    return (this._refusals ??= refusalsFor(this.op));
  }

  /** What the refusals of each status carry beyond the envelope's own members (`refusalDetails`). */
  get refusalDetails(): Map<number, z.ZodRawShape> {
    return (this._details ??= refusalDetailsFor(this.op));
  }

  /** The declared error body of a status: its codes and details (the OpenAPI response; the self-check holds refusals to it). */
  errorSchema(status: number): z.ZodType {
    let s = this.errorSchemas.get(status);
    if (!s) this.errorSchemas.set(status, (s = errorEnvelope([...(this.refusals.get(status) ?? [])].sort(), this.refusalDetails.get(status))));
    return s;
  }

  /** The validator of the merged input (path, query and body, or a tool's arguments). */
  get inputSchema(): z.ZodObject {
    return (this._input ??= z.object(this.op.input));
  }

  /** The tools/list entry; undefined for an operation without a tool. */
  get tool(): ToolDef | undefined {
    const op = this.op;
    if (!op.tool) return undefined;
    return (this._tool ??= toolDefFor(op as Operation & { tool: string }, this.refusals));
  }

  declares(status: number, code: string): boolean {
    return this.refusals.get(status)?.has(code) === true;
  }

  /** A path or query string as the type its property declares (src/contract/coerce.ts). */
  coerce(name: string, value: string): unknown {
    let c = this.coercers.get(name);
    if (!c) this.coercers.set(name, (c = coercerOf(this.op.input[name] as z.ZodType | undefined)));
    return c(value);
  }
}

// The one memo of derived facts: operations are values of constant tables (or of a
// test's own table), shared by every emulator of the process.
const compiledOps = new WeakMap<Operation, CompiledOperation>();

export function compiled(op: Operation): CompiledOperation {
  let c = compiledOps.get(op);
  if (!c) compiledOps.set(op, (c = new CompiledOperation(op)));
  return c;
}

export const partitionOf = (op: Operation): Partition => compiled(op).partition;
export const refusalsByStatus = (op: Operation): Map<number, Set<string>> => compiled(op).refusals;
export const declaresRefusal = (op: Operation, status: number, code: string): boolean => compiled(op).declares(status, code);

/** An emulator's table compiled: its MCP tools by name and their tools/list entries, made on first use. */
export class CompiledTable {
  private _byName?: Map<string, Operation>;
  private _defs?: ToolDef[];

  constructor(readonly ops: readonly Operation[]) {}

  get toolsByName(): Map<string, Operation> {
    return (this._byName ??= new Map(this.ops.filter((o) => o.tool).map((o) => [o.tool!, o])));
  }

  get toolDefs(): ToolDef[] {
    return (this._defs ??= [...this.toolsByName.values()].map((o) => compiled(o).tool!));
  }
}
