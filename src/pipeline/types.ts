// The shapes the request path passes between transports and steps. Kept apart
// so the platform (idempotency) can name them without importing the pipeline.
import type { Region } from '../context';
import type { JournalMark } from '../platform/journal';
import type { Outcome } from '../platform/idempotency-types';

export interface CallInfo {
  requestId: string;
  apiKey: string | null | undefined;
  /** An OAuth access token (`Authorization: Bearer`), read by the MCP transport alone (docs/oauth.md). */
  bearer?: string | null;
  /** Region of the address the request came to. */
  region: Region;
  sourceIp: string;
  timezoneHeader?: string | null;
  idempotencyKey?: string | null;
  /** Where the idempotency key travels on this transport, named by its refusals: the header (default) or MCP's `idempotencyKey` argument. */
  idempotencyField?: string;
  transport: 'rest' | 'mcp' | 'legacy';
  /** Path and query of the request, for WRONG_REGION's `url`. */
  pathAndQuery: string;
  /** The refusal message when no key was given, naming where the key goes on this transport. */
  missingKey?: string;
  /** The request journal's entry for this request (platform/journal.ts); authenticate names the key. */
  journal?: JournalMark;
}

export type { Outcome };

/** What the pipeline hands back to a transport: an answer, or a refusal to convert at its boundary. */
export type Answer =
  | ({ ok: true } & Outcome)
  | {
      ok: false;
      /** What was thrown: an ApiError, a transport's own refusal (legacy), or a bug. */
      error: unknown;
      /** Headers already earned (X-Request-Id, budget headers) that the refusal carries too. */
      headers: Record<string, string>;
    };

/** How a transport's calls are treated (v3 and MCP: all on; the legacy API: legacy spec 5, 9). */
export interface Rules {
  /** A key of the other region is refused with 421 WRONG_REGION. */
  regional: boolean;
  /** Charged to the workspace's rate budgets. */
  charged: boolean;
  /** Invalid keys count toward the per-address throttle. */
  throttled: boolean;
  /** Answers are checked against the operation table's declared contract (when the check is on). */
  contract: boolean;
  /**
   * A read's answer (and an `unchangedIsRead` write's that changed nothing) may be answered from
   * memory until the database changes (pipeline/answer-memo.ts). The legacy routes' handlers keep
   * their own ways: always run.
   */
  remembered: boolean;
}

export const V3_RULES: Rules = { regional: true, charged: true, throttled: true, contract: true, remembered: true };
export const LEGACY_RULES: Rules = { regional: false, charged: false, throttled: false, contract: false, remembered: false };

/**
 * The web console's own route family (/app/_/v3, src/console/api.ts): the same operations,
 * refusals and contract, charged to no budget, as the service's web app spends no API budget.
 */
export const CONSOLE_RULES: Rules = { ...V3_RULES, charged: false };
