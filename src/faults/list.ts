// The emulator's fault rules (one list per emulator, no globals): added through
// /_emulator/faults or the library, matched per call, cleared by reset.
import { z } from 'zod';
import { ApiError, validationError } from '../errors';
import { checkRule, faultRuleInput, kindOf, pathMatcher, type FaultKind, type FaultRule, type FaultRuleInput } from './rules';
import { seededRandom } from '../seeded-random';

/** What a call looks like to the rules: REST/legacy by method and path, MCP by tool names. */
export interface FaultCall {
  method: string;
  path: string;
  region: 'US' | 'EU';
  /** Names of the tools a POST /mcp calls (tools/call messages). */
  tools?: string[];
}

export interface FaultHit {
  rule: FaultRule;
  kind: FaultKind;
}

interface Live {
  rule: FaultRule;
  path?: RegExp;
  random?: () => number;
}

export class FaultList {
  private rules: Live[] = [];
  private next = 1;

  get size(): number {
    return this.rules.length;
  }

  /** Whether any rule names an MCP tool (then /mcp bodies are read before the call). */
  get hasToolRules(): boolean {
    return this.rules.some((l) => l.rule.tool !== undefined);
  }

  /** Adds a rule; a bad one is refused (400 VALIDATION_ERROR with `field`) and nothing changes. */
  add(input: FaultRuleInput | unknown): FaultRule {
    if (input === null || typeof input !== 'object' || Array.isArray(input)) throw validationError('A fault rule is a JSON object.');
    const parsed = faultRuleInput().safeParse(input);
    if (!parsed.success) throw ruleError(parsed.error);
    const r = parsed.data;
    checkRule(r);
    const seed = r.probability !== undefined ? (r.seed ?? Math.floor(Math.random() * 2 ** 32)) : undefined;
    const rule: FaultRule = { id: `fault-${this.next++}`, ...r, ...(seed !== undefined ? { seed } : {}), hits: 0, ...(r.times !== undefined ? { remaining: r.times } : {}) };
    this.rules.push({ rule, path: r.path ? pathMatcher(r.path) : undefined, random: seed !== undefined ? seededRandom(seed) : undefined });
    return { ...rule };
  }

  list(): FaultRule[] {
    return this.rules.map((l) => ({ ...l.rule }));
  }

  remove(id: string): boolean {
    const before = this.rules.length;
    this.rules = this.rules.filter((l) => l.rule.id !== id);
    return this.rules.length < before;
  }

  clear(): void {
    this.rules = [];
  }

  /** The first rule that matches and fires for this call (counting it), or undefined. */
  take(call: FaultCall): FaultHit | undefined {
    for (const l of this.rules) {
      const r = l.rule;
      if (r.region && r.region !== call.region) continue;
      if (r.tool !== undefined) {
        if (!call.tools?.includes(r.tool)) continue;
      } else {
        if (r.method && r.method !== '*' && r.method !== call.method) continue;
        if (!l.path!.test(call.path)) continue;
      }
      if (l.random && l.random() >= r.probability!) continue;
      r.hits++;
      if (r.remaining !== undefined && --r.remaining <= 0) this.rules = this.rules.filter((x) => x !== l);
      return { rule: { ...r }, kind: kindOf(r) };
    }
    return undefined;
  }
}

function ruleError(err: z.ZodError): ApiError {
  const issue = err.issues[0];
  const field = issue.path.map(String).join('.');
  if (issue.code === 'unrecognized_keys') {
    return validationError(`Unknown propert${issue.keys.length === 1 ? 'y' : 'ies'} ${issue.keys.join(', ')}. A fault rule has method, path, tool, region, status, code, message, retryAfter, bucket, delayMs, drop, times, probability, seed.`, issue.keys[0]);
  }
  return validationError(`${field} ${issue.message}`, field || undefined);
}
