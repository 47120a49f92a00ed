// The emulator as a value: database, clock, operation table and platform state.
// No globals: a test can run several emulators in one process.
import { Clock } from './clock';
import { openDb, type Db } from './store/open';
import { verifyMemos } from './store/memo';
import { KeyResolver } from './domain/auth';
import { KeyThrottle, RateLimiter } from './platform/ratelimit';
import { operations } from './operations';
import { mcpCatalog, type McpCatalog } from './operations/mcp-catalog';
import type { Operation } from './operations/define';
import type { DomainHooks, Region } from './context';
import type { IdempotencyStore } from './platform/idempotency-types';
import { loadFixture, type FixtureSource } from './fixtures/load';
import { fixtureLabel } from './fixtures/source';
import { RequestJournal } from './platform/journal';
import { SqliteIdempotencyStore } from './platform/idempotency';
import { BudgetStore } from './platform/budget-store';
import { ContractChecker } from './contract/check';
import { CompiledTable } from './contract/compile';
import { ChangeSignals } from './platform/changes';
import { FaultList } from './faults/list';
import { FixtureImage } from './platform/database';
import { TempFiles } from './platform/temp-files';
import { hasWorkspaces } from './rows/people';
import type { WebhookOptions } from './public/types';

// The settings of the areas that plug in (src/webhooks, src/upgrades) are declared here,
// with the emulator's own, so the core imports none of them.
export type { WebhookOptions };

/** Upgrade worker settings (docs/upgrades.md "The worker"). */
export interface UpgradeOptions {
  /**
   * Emulator-clock wait between queueing a rebuild and its being due. Default 60 000: the
   * Retry-After the 202 gives (spec v3 8), so a client that waits as told finds it done, and a
   * test moves the clock instead of waiting. 0: due at the next poll.
   */
  delayMs?: number;
  /** How often (real ms) the worker looks for due rebuilds; it is also woken after every queueing. Default 100. */
  pollMs?: number;
}

/** Limits of /_emulator/instances (docs/instances.md "Limits"). */
export interface InstanceSettings {
  /** An instance with no request for this long (real ms) is stopped. Default 30 minutes. */
  ttlMs?: number;
  /** Instances alive at once; one more is refused with 503 and Retry-After. Default 64. */
  max?: number;
  /** Address instances bind (the server's own --host). Default 127.0.0.1. */
  host?: string;
  /** false: instances answer only through the library's in-process fetch (no ports). Default true. */
  listen?: boolean;
}

export interface EmulatorOptions {
  db?: string;
  /** An in-memory database starting from these bytes (db.serialize() of a migrated, seeded database; src/instances/image.ts). */
  image?: Buffer;
  /** A built-in name, 'none', a directory or fixture.json path, or a fixture object (docs/fixtures.md). */
  fixture?: FixtureSource;
  standardBudget?: number;
  cheapBudget?: number;
  clock?: Clock;
  /** Base URLs per region; filled in by the server once it listens. */
  baseUrls?: Partial<Record<Region, string>>;
  adminToken?: string;
  noAdmin?: boolean;
  /** Web page origins allowed besides the emulator's own (--allow-origin; docs/security.md). */
  allowOrigins?: string[];
  /** Host names allowed besides localhost, 127.0.0.1, [::1] and the bound address (--allow-host). */
  allowHosts?: string[];
  maxBodyBytes?: number;
  /** The largest body POST /_emulator/import takes (--max-import-bytes; default 256 MB). */
  maxImportBytes?: number;
  log?: (line: string) => void;
  /** Webhook delivery settings (docs/webhooks.md). */
  webhooks?: WebhookOptions;
  /** Upgrade worker settings (docs/upgrades.md). */
  upgrades?: UpgradeOptions;
  /** Check every answer against the operation's declared contract (the test suite turns it on). */
  contractCheck?: boolean;
  /** Every memo hit is recomputed and compared (src/store/memo.ts); also WFE_MEMO_VERIFY=1. On in the test server. */
  memoVerify?: boolean;
  /** MCP resources, resource templates and prompts to serve (default: src/operations/mcp-catalog.ts). */
  catalog?: McpCatalog;
  /** The operation table to serve (tests may serve their own; default: every v3 operation). */
  ops?: Operation[];
  /** Isolated instances on demand (/_emulator/instances, docs/instances.md); false: none (an instance itself). */
  instances?: InstanceSettings | false;
  /** OAuth sign-in on /mcp (docs/oauth.md); false: off (--no-oauth), /mcp takes X-API-KEY alone. */
  oauth?: boolean;
  /** false: never answer 429 for repeated invalid keys (--no-key-throttle, for fuzzing; spec v3 8 throttles). */
  keyThrottle?: boolean;
}

/**
 * A typed slot of per-emulator state that an area outside the core keeps (its webhook sender,
 * scheduler, instances): the area declares the key beside its code, so the emulator holds the
 * value without importing the area, and closing or dropping the emulator drops it too.
 */
export class Slot<T> {
  /** Brands the key with its value's type. */
  declare private readonly type: T;
  constructor(readonly name: string) {}
}

export class Emulator {
  readonly db: Db;
  readonly clock: Clock;
  readonly ops: Operation[];
  private compiledTable?: CompiledTable;
  /** The operation table compiled (src/contract/compile.ts): the MCP tools by name and their entries, built on first use,
   * and again if `ops` is replaced (a test may serve its own operations beside the table's). */
  get table(): CompiledTable {
    if (this.compiledTable?.ops !== this.ops) this.compiledTable = new CompiledTable(this.ops);
    return this.compiledTable;
  }
  readonly catalog: McpCatalog;
  readonly keys: KeyResolver;
  readonly limiter: RateLimiter;
  /** This server's temporary files (imports), under one directory swept at start and removed at close. */
  readonly temp = new TempFiles();
  readonly throttle: KeyThrottle;
  readonly baseUrls: Record<Region, string>;
  readonly hooks: DomainHooks = {};
  readonly fixture: FixtureSource;
  readonly maxBodyBytes: number;
  /** Functions run when the emulator closes (background workers register here). */
  readonly closers: (() => void | Promise<void>)[] = [];
  readonly log: (line: string) => void;
  /** Idempotency-Key handling (spec v3 4.1 rule 12); platform/idempotency.ts installs it. */
  idempotency?: IdempotencyStore;
  /** The last requests, for GET /_emulator/journal (platform/journal.ts). */
  readonly journal = new RequestJournal();
  /** Injected faults (src/faults, /_emulator/faults): none unless asked for; reset clears them. */
  readonly faults = new FaultList();
  /** Which workspace's data changed, for the console's change feed (platform/changes.ts). */
  readonly changes = new ChangeSignals();
  /** The contract self-check (src/contract/check.ts), when asked for. */
  readonly contract?: ContractChecker;
  /** When this emulator was made (real time), for the health route's uptime. */
  readonly startedAt = Date.now();
  /** The fixture's image for fast resets (platform/database.ts), made by the first reset. */
  readonly fixtureImage = new FixtureImage();

  private readonly slots = new Map<Slot<unknown>, unknown>();

  /** The value an area keeps in this emulator under `key`, if it set one. */
  slot<T>(key: Slot<T>): T | undefined {
    return this.slots.get(key) as T | undefined;
  }

  setSlot<T>(key: Slot<T>, value: T): T {
    this.slots.set(key, value);
    return value;
  }

  constructor(readonly options: EmulatorOptions = {}) {
    this.ops = options.ops ?? operations;
    this.catalog = options.catalog ?? mcpCatalog;
    this.clock = options.clock ?? new Clock();
    this.throttle = new KeyThrottle(options.keyThrottle === false ? Infinity : undefined);
    this.db = openDb(options.db, options.image);
    // WFE_CONTRACT_CHECK=1: the test suite's stdio MCP processes check their answers too.
    if (options.contractCheck ?? process.env.WFE_CONTRACT_CHECK === '1') this.contract = new ContractChecker();
    verifyMemos(this.db, options.memoVerify ?? process.env.WFE_MEMO_VERIFY === '1');
    this.fixture = options.fixture ?? 'demo';
    const fresh = !hasWorkspaces(this.db);
    if (fresh && this.fixture !== 'none') {
      try {
        loadFixture(this.db, this.fixture, this.clock.now());
      } catch (e) {
        this.db.close();
        throw e;
      }
    }
    this.keys = new KeyResolver(this.db);
    this.limiter = new RateLimiter({
      standard: options.standardBudget ?? 1000,
      cheap: options.cheapBudget ?? 10000,
    });
    this.baseUrls = {
      US: options.baseUrls?.US ?? 'http://127.0.0.1:8787',
      EU: options.baseUrls?.EU ?? 'http://127.0.0.1:8788',
    };
    this.maxBodyBytes = options.maxBodyBytes ?? 16 * 1024 * 1024;
    this.log = options.log ?? ((line) => process.stderr.write(line + '\n'));
    // Platform state every emulator carries, whichever transport runs it (serve and
    // `wfe mcp` alike): idempotency over SQLite and persisted rate-budget counters.
    this.idempotency = new SqliteIdempotencyStore(this.db);
    const budgets = new BudgetStore(this.db, this.limiter, () => this.clock.now());
    budgets.load();
    budgets.start();
    this.closers.push(() => budgets.stop());
  }

  /** The fixture's name for people: a built-in name, a path, or an object's `name`. */
  get fixtureName(): string {
    return fixtureLabel(this.fixture);
  }

  async close(): Promise<void> {
    for (const c of this.closers.splice(0).reverse()) await c();
    this.temp.close();
    if (this.db.open) this.db.close();
  }
}
