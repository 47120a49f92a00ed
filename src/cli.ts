// wfe: the command line (../shared/EMULATOR.md "Command line").
// Only commander is loaded up front: each command loads what it runs (the emulator,
// the MCP SDK, the fixture loader) when it runs, so `wfe --version` and `--help` cost
// little more than node itself (measured in `npm run bench`; docs/performance.md).
import { Command, Option, InvalidArgumentError } from 'commander';
import { fixtureNames } from './fixtures/source';
import { addFixtureCommands } from './fixtures/commands';
import { addVersionCommand } from './version';
import { commands } from './commands';
import { parseDuration } from './instances/settings';

const env = process.env;

const positiveInt = (name: string) => (v: string) => {
  if (!/^\d+$/.test(v.trim()) || Number(v) < 1 || !Number.isSafeInteger(Number(v))) throw new InvalidArgumentError(`${name} must be a whole number of 1 or more.`);
  return Number(v);
};
const port = (v: string) => {
  if (!/^\d+$/.test(v.trim()) || Number(v) > 65535) throw new InvalidArgumentError('a port is a number from 0 to 65535 (0 = any free port).');
  return Number(v);
};

/** An occupied port in the words of the command line: which flag set it, and what to do. */
function portInUse(e: NodeJS.ErrnoException & { port?: number }, o: { host: string; portUs: number; portEu: number }): Error {
  const flag = e.port === o.portUs ? '--port-us' : e.port === o.portEu ? '--port-eu' : undefined;
  const which = flag ? `port ${e.port} (${flag}, env ${flag === '--port-us' ? 'WFE_PORT_US' : 'WFE_PORT_EU'})` : `port ${e.port ?? '?'}`;
  return new Error(`${which} is already in use on ${o.host} (EADDRINUSE): stop what uses it, or choose another with ${flag ?? '--port-us/--port-eu'} <port> (0 = any free port).`);
}

/** A repeatable option: every use adds one; the variable (comma-separated) is read when no flag is given. */
const collect = (check?: (v: string) => string) => (v: string, previous: string[] | undefined) => [...(previous ?? []), check ? check(v) : v];
const fromEnv = (given: string[] | undefined, name: string) => given ?? (env[name] ? env[name]!.split(',').map((v) => v.trim()).filter(Boolean) : []);
const originValue = (v: string) => {
  if (!/^https?:\/\/[^/?#\s]+\/?$/i.test(v.trim())) throw new InvalidArgumentError(`"${v}" is not an origin: give scheme, host and port only, e.g. http://localhost:5173.`);
  return v.trim();
};
const hostValue = (v: string) => {
  // `*`: names of one label and IP addresses, as containers reach each other (docs/container.md).
  if (v.trim() === '*') return '*';
  if (!/^\.?[a-z0-9.\-[\]:]+$/i.test(v.trim()) || /^\.?$/.test(v.trim())) throw new InvalidArgumentError(`"${v}" is not a host name (give a name or address without port or scheme, e.g. devbox.local; a leading dot allows a domain and its subdomains).`);
  return v.trim();
};
const duration = (v: string) => {
  const ms = parseDuration(v);
  if (ms === undefined) throw new InvalidArgumentError('a duration is a number of seconds, or a number with ms, s, m or h (e.g. 90s, 30m).');
  return ms;
};

/** Flags win over WFE_* variables; both go through the same parser (commander's Option.env). */
const budgetOption = (flags: string, what: string, envName: string, fallback: number) =>
  new Option(flags, what).env(envName).argParser(positiveInt(flags.split(' ')[0])).default(fallback);

export function buildProgram(): Command {
  const program = new Command();
  program.name('wfe').description('Workflow Emulator: the Workflow Service v3 REST API, MCP server, legacy API and webhooks, offline.').version('0.1.0');

  program
    .command('serve')
    .description('Run the emulator: US and EU regional addresses, each with /v3, /mcp, /api and /_emulator.')
    .addOption(new Option('--host <host>', 'address to bind').env('WFE_HOST').default('127.0.0.1'))
    .addOption(new Option('--port-us <port>', 'US region port (0 = any free port)').env('WFE_PORT_US').argParser(port).default(8787))
    .addOption(new Option('--port-eu <port>', 'EU region port (0 = any free port)').env('WFE_PORT_EU').argParser(port).default(8788))
    .addOption(new Option('--db <file>', 'persist to a SQLite file (WAL; seeded only when new); default in-memory').env('WFE_DB'))
    .addOption(new Option('--fixture <name|path|none>', 'fixture to seed a new database with').env('WFE_FIXTURE').default('demo'))
    .addOption(budgetOption('--standard-budget <n>', 'standard requests per hour per workspace', 'WFE_STANDARD_BUDGET', 1000))
    .addOption(budgetOption('--cheap-budget <n>', 'cheap requests per hour per workspace', 'WFE_CHEAP_BUDGET', 10000))
    .addOption(new Option('--admin-token <token>', 'require Authorization: Bearer <token> on /_emulator routes').env('WFE_ADMIN_TOKEN'))
    .addOption(new Option('--no-admin', 'turn the /_emulator control routes off (self-hosting; env WFE_NO_ADMIN=1)'))
    .addOption(new Option('--no-oauth', 'turn OAuth sign-in on /mcp off: X-API-KEY only, no WWW-Authenticate challenge (env WFE_NO_OAUTH=1); docs/oauth.md'))
    .addOption(new Option('--allow-origin <origin>', 'also answer web pages on this origin (repeatable; env WFE_ALLOW_ORIGIN, comma-separated); docs/security.md').argParser(collect(originValue)))
    .addOption(new Option('--allow-host <name>', 'also answer requests whose Host names this (repeatable; env WFE_ALLOW_HOST); docs/security.md').argParser(collect(hostValue)))
    .addOption(new Option('--max-import-bytes <n>', 'largest database file POST /_emulator/import takes (bytes)').env('WFE_MAX_IMPORT_BYTES').argParser(positiveInt('--max-import-bytes')).default(256 * 1024 * 1024))
    .addOption(new Option('--instance-ttl <duration>', 'stop an isolated instance after this long without a request (seconds, or 500ms, 90s, 30m, 2h)').env('WFE_INSTANCE_TTL').argParser(duration).default(30 * 60_000, '30m'))
    .addOption(new Option('--max-instances <n>', 'isolated instances alive at once (POST /_emulator/instances)').env('WFE_MAX_INSTANCES').argParser(positiveInt('--max-instances')).default(64))
    .addOption(new Option('--no-key-throttle', 'fuzzing: never answer 429 for repeated invalid keys (spec v3 8 does; env WFE_NO_KEY_THROTTLE=1)'))
    .addOption(new Option('--quiet', 'print nothing but errors'))
    .action(async (o) => {
      const { start } = await import('./start');
      if (env.WFE_NO_ADMIN === '1' || env.WFE_NO_ADMIN === 'true') o.admin = false;
      if (env.WFE_NO_OAUTH === '1' || env.WFE_NO_OAUTH === 'true') o.oauth = false;
      if (env.WFE_NO_KEY_THROTTLE === '1' || env.WFE_NO_KEY_THROTTLE === 'true') o.keyThrottle = false;
      if (o.portUs === o.portEu && o.portUs !== 0) {
        throw new Error(`--port-us and --port-eu are both ${o.portUs}: each region needs its own port. Give --port-eu another port (0 = any free port).`);
      }
      const s = await start({
        host: o.host,
        portUs: o.portUs,
        portEu: o.portEu,
        db: o.db,
        fixture: o.fixture,
        standardBudget: o.standardBudget,
        cheapBudget: o.cheapBudget,
        adminToken: o.adminToken,
        noAdmin: o.admin === false,
        oauth: o.oauth !== false,
        allowOrigins: fromEnv(o.allowOrigin, 'WFE_ALLOW_ORIGIN').map(originValue),
        allowHosts: fromEnv(o.allowHost, 'WFE_ALLOW_HOST').map(hostValue),
        maxImportBytes: o.maxImportBytes,
        instances: { ttlMs: o.instanceTtl, max: o.maxInstances },
        keyThrottle: o.keyThrottle !== false,
      }).catch(async (e: NodeJS.ErrnoException & { port?: number }) => {
        if (e.code === 'EADDRINUSE') throw portInUse(e, o);
        throw o.db ? (await import('./store/db-file')).explainOpenError(o.db, e) : e;
      });
      // Handlers first: whoever reads the banner ("Ctrl+C to stop") may stop it at once.
      let stopping = false;
      const stop = async (why: string) => {
        if (stopping) return;
        stopping = true;
        await s.close();
        if (!o.quiet) process.stdout.write(`Workflow Emulator stopped (${why}).\n`);
        process.exit(0);
      };
      process.once('SIGINT', () => void stop('SIGINT'));
      process.once('SIGTERM', () => void stop('SIGTERM'));
      // Started by npx or npm run: stop with it (src/starter.ts).
      const { startedByNpm, watchStarter } = await import('./starter');
      if (startedByNpm()) watchStarter((why) => void stop(why === 'exited' ? 'the npm process that started it exited' : 'the npm process that started it was interrupted'));
      if (!o.quiet) await printBanner(s.urls, { ...o, forwardEvents: o.forwardEvents ?? env.WFE_FORWARD_EVENTS });
      if (!o.quiet && (o.host === '0.0.0.0' || o.host === '::')) {
        process.stdout.write(`  Note: bound to ${o.host}; requests are answered only when their Host is localhost, 127.0.0.1, [::1] or a name given to --allow-host${fromEnv(o.allowHost, 'WFE_ALLOW_HOST').includes('*') ? " ('*': also any name of one label and any IP address)" : ''} (docs/security.md).\n`);
      }
      if (o.host !== '127.0.0.1' && o.host !== 'localhost' && o.host !== '::1' && !o.adminToken && o.admin !== false) {
        process.stderr.write(`warning: bound to ${o.host} with /_emulator control routes open and no --admin-token; anyone who can reach this address can reset or export the database.\n`);
      }
    });

  program
    .command('mcp')
    .description('Run the MCP server over stdio for desktop agents. The key comes from SVC_API_KEY (or --key).')
    .addOption(new Option('--key <key>', 'API key').env('SVC_API_KEY'))
    .addOption(new Option('--db <file>', 'SQLite file (default: in-memory demo workspace)').env('WFE_DB'))
    .addOption(new Option('--fixture <name|path|none>', 'fixture to seed a new database with').env('WFE_FIXTURE').default('demo'))
    .addOption(budgetOption('--standard-budget <n>', 'standard requests per hour per workspace', 'WFE_STANDARD_BUDGET', 1000))
    .addOption(budgetOption('--cheap-budget <n>', 'cheap requests per hour per workspace', 'WFE_CHEAP_BUDGET', 10000))
    // Answers carry links (url, file downloads) on the regional addresses. stdio has none, so the
    // links name those of the `wfe serve` sharing the database: the same flags and variables.
    // 0 (serve: any free port) cannot be known here and leaves the default port.
    .addOption(new Option('--host <host>', 'host of the wfe serve whose addresses links carry').env('WFE_HOST').default('127.0.0.1'))
    .addOption(new Option('--port-us <port>', 'US port of the wfe serve whose addresses links carry').env('WFE_PORT_US').argParser(port).default(8787))
    .addOption(new Option('--port-eu <port>', 'EU port of the wfe serve whose addresses links carry').env('WFE_PORT_EU').argParser(port).default(8788))
    // Narrowing (docs/mcp.md): what the agent may see and call; a tool left out is an unknown tool.
    .option('--read-only', 'list and allow only the tools annotated read-only')
    .option('--tools <names>', 'list and allow only these tools (comma-separated)')
    .option('--toolsets <names>', 'list and allow only these groups of tools (comma-separated): tasks, checklists, templates, people, my-work, data-sets, schedules, webhooks')
    .action(async (o, cmd: Command) => {
      const [{ createEmulator }, { serveStdio }, { hostForUrl }, { parseNarrowing }] = await Promise.all([
        import('./start'),
        import('./transports/mcp/stdio'),
        import('./transports/http/server'),
        import('./transports/mcp/narrowing'),
      ]);
      const base = (p: number, fallback: number) => `http://${hostForUrl(o.host)}:${p || fallback}`;
      const { explainOpenError } = await import('./store/db-file');
      const { emu } = (() => {
        try {
          return createEmulator({
            db: o.db,
            fixture: o.fixture,
            standardBudget: o.standardBudget,
            cheapBudget: o.cheapBudget,
            baseUrls: { US: base(o.portUs, 8787), EU: base(o.portEu, 8788) },
            log: (l) => process.stderr.write(l + '\n'),
          });
        } catch (e) {
          throw o.db ? explainOpenError(o.db, e) : e;
        }
      })();
      let narrowing;
      try {
        narrowing = parseNarrowing({ readOnly: o.readOnly, tools: o.tools, toolsets: o.toolsets }, { readOnly: '--read-only', tools: '--tools', toolsets: '--toolsets' }, emu.table.toolsByName);
      } catch (e) {
        await emu.close();
        cmd.error(`error: ${e instanceof Error ? e.message : String(e)}`, { exitCode: 2, code: 'wfe.mcp.narrowing' });
      }
      const close = await serveStdio(emu, o.key, undefined, narrowing);
      const stop = async () => {
        await close();
        await emu.close();
        process.exit(0);
      };
      process.stdin.once('end', stop);
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });

  program
    .command('fixtures')
    .description('List the fixtures built into wfe and their keys.')
    .action(async () => {
      const { fixtureKeys, keyLine } = await import('./fixtures/keys');
      for (const name of fixtureNames()) {
        process.stdout.write(`${name}\n`);
        for (const k of fixtureKeys(name)) process.stdout.write(`  ${keyLine(k)}\n`);
      }
    });

  program
    .command('keys')
    .description("Print a fixture's API keys.")
    .argument('[fixture]', 'fixture name or path', 'demo')
    .action(async (fixture: string) => {
      const { fixtureKeys, keyLine } = await import('./fixtures/keys');
      for (const k of fixtureKeys(fixture)) process.stdout.write(`${keyLine(k)}\n`);
    });

  program
    .command('fidelity')
    .description('Print which operations follow the service documentation and which we designed (docs/fidelity.md).')
    .action(async () => {
      const [{ fidelityMarkdown }, { operations }] = await Promise.all([import('./contract/fidelity'), import('./operations')]);
      process.stdout.write(fidelityMarkdown(operations));
    });

  addFixtureCommands(program);
  addVersionCommand(program);
  for (const add of commands) add(program);
  return program;
}

async function printBanner(urls: Record<'US' | 'EU', string>, o: { fixture: string; db?: string; forwardEvents?: string; keyThrottle?: boolean }) {
  const lines = [
    'Workflow Emulator is running.',
    `  US  REST ${urls.US}/v3   MCP ${urls.US}/mcp`,
    `  EU  REST ${urls.EU}/v3   MCP ${urls.EU}/mcp`,
    `  Legacy API: ${urls.US}/api (either address)   Control: ${urls.US}/_emulator`,
    `  Web console: ${urls.US}/app (EU: ${urls.EU}/app)`,
    `  Database: ${o.db ?? 'in-memory'}   Fixture: ${o.fixture}`,
  ];
  if (o.forwardEvents) lines.push(`  Forwarding every event of every workspace to ${o.forwardEvents} (--forward-events)`);
  if (o.keyThrottle === false) lines.push('  Invalid-key throttle off (--no-key-throttle): repeated bad keys are never answered 429, unlike the service');
  const { fixtureKeys, keyLine } = await import('./fixtures/keys');
  const keys = fixtureKeys(o.fixture);
  if (keys.length) {
    lines.push('  Keys (X-API-KEY):');
    for (const k of keys) lines.push(`    ${keyLine(k)}`);
  }
  lines.push('  Ctrl+C to stop.');
  process.stdout.write(lines.join('\n') + '\n');
}

if (require.main === module || (process.argv[1] ?? '').match(/wfe(\.c?js)?$/) || process.env.WFE_CLI === '1') {
  // `wfe fixture schema | head`: a reader that stops early is not an error.
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(0);
    throw e;
  });
  buildProgram()
    .parseAsync(process.argv)
    .catch((e) => {
      process.stderr.write(`wfe: ${e instanceof Error ? e.message : String(e)}\n`);
      process.exit(1);
    });
}
