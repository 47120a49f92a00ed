import type { Ctx } from '../context';
import type { Operation } from '../operations/define';

export interface IdempotencyStore {
  /** Runs `execute` once per (workspace, key); replays the first answer for the same request within 24 h. */
  /** `field`: where the key travelled (the Idempotency-Key header, or MCP's idempotencyKey argument), named by a refusal of it. */
  run(ctx: Ctx, op: Operation, input: Record<string, unknown>, key: string, field: string, execute: () => Outcome): Outcome;
}

/** A handler's answer as the pipeline carries it, and as an idempotent replay stores it. */
export interface Outcome {
  status: number;
  /** undefined: no body (204). */
  body: unknown;
  headers: Record<string, string>;
  replay?: boolean;
}
