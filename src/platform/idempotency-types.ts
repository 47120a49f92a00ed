import type { Ctx } from '../context';
import type { Operation } from '../operations/define';
import type { Outcome } from '../pipeline/types';

export interface IdempotencyStore {
  /** Runs `execute` once per (workspace, key); replays the first answer for the same request within 24 h. */
  run(ctx: Ctx, op: Operation, input: Record<string, unknown>, key: string, execute: () => Outcome): Outcome;
}
