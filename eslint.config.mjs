// npm run lint. The layer rules of docs/architecture.md as import restrictions, so a
// rule that is written down is one the build runs; the import cycle and folder checks
// are test/lint/imports.ts (npm run lint runs both).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// Top-level folders of src/, as an import from a file `depth` folders below src/ names them.
const up = (depth) => (depth === 0 ? '\\./' : `(\\.\\./){${depth}}`);
const restrict = (message, depth, folders) => ({ regex: `^${up(depth)}(${folders.join('|')})(/|$)`, message });
/** The same restriction for files at each depth below `dir` (src/domain/x.ts, src/domain/area/x.ts, ...). */
const layer = (dir, rules) =>
  [1, 2, 3].map((below) => ({
    files: [`src/${dir}/${'*/'.repeat(below - 1)}*.ts`],
    rules: { 'no-restricted-imports': ['error', { patterns: rules.map(([message, folders]) => restrict(message, dir.split('/').length + below - 1, folders)) }] },
  }));

// Areas that plug into the server from outside its core (src/extensions.ts installs them).
const extensions = ['legacy', 'control', 'checkpoints', 'faults', 'console', 'webhooks', 'schedules', 'upgrades', 'fixtures', 'instances', 'extensions', 'request-chain', 'oauth'];

export default tseslint.config(
  {
    ignores: ['dist/**', 'node_modules/**', 'test/lint/out/**', 'test/package/**', '**/*.cjs', 'build*.mjs'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    languageOptions: {
      globals: {
        process: 'readonly', Buffer: 'readonly', console: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly',
        setInterval: 'readonly', clearInterval: 'readonly', setImmediate: 'readonly', clearImmediate: 'readonly',
        __dirname: 'readonly', __filename: 'readonly', require: 'readonly', module: 'writable', URL: 'readonly',
        URLSearchParams: 'readonly', TextEncoder: 'readonly', TextDecoder: 'readonly', fetch: 'readonly',
        Request: 'readonly', Response: 'readonly', Headers: 'readonly', AbortController: 'readonly', AbortSignal: 'readonly',
        performance: 'readonly', structuredClone: 'readonly', queueMicrotask: 'readonly', globalThis: 'readonly',
        ReadableStream: 'readonly', Blob: 'readonly', FormData: 'readonly', crypto: 'readonly', EventSource: 'readonly',
        NodeJS: 'readonly', BodyInit: 'readonly', File: 'readonly', WebSocket: 'readonly',
      },
    },
    rules: {
      // TypeScript checks these itself (npm run typecheck), with the types ESLint lacks here.
      'no-undef': 'off',
      'no-redeclare': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      // `any` only where a comment says why (an eslint-disable line with its reason).
      '@typescript-eslint/no-explicit-any': 'error',
      'no-empty': ['error', { allowEmptyCatch: true }],
      'no-control-regex': 'off',
      // `cond ? a() : b()` and `x && f()` as statements are the house style for small branches.
      '@typescript-eslint/no-unused-expressions': ['error', { allowShortCircuit: true, allowTernary: true }],
    },
  },
  {
    // The launcher stays CommonJS: it runs before anything is loaded.
    files: ['bin/**/*.js'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // The browser console: its own program (src/console/ui/tsconfig.json).
    files: ['src/console/ui/**'],
    // The pages read the v3 API's JSON as it comes: its shapes are the server's contract, checked there.
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
    languageOptions: { globals: { window: 'readonly', document: 'readonly', location: 'readonly', history: 'readonly', localStorage: 'readonly', navigator: 'readonly', HTMLElement: 'readonly', Event: 'readonly', KeyboardEvent: 'readonly', MouseEvent: 'readonly' } },
  },
  {
    files: ['test/**', 'bench/**'],
    // A test's leftovers (an unused helper, a stale disable comment) are reported, not fatal:
    // they change no behaviour, and tests land from several branches at once.
    linterOptions: { reportUnusedDisableDirectives: 'warn' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['warn', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      // Tests read answers of any shape and send deliberately odd values (fuzz inputs, exact log lines).
      '@typescript-eslint/no-explicit-any': 'off',
      'no-loss-of-precision': 'off',
      'no-regex-spaces': 'off',
    },
  },
  {
    // The domain and the row layer read the time only through ctx.now(): a read that asks it is
    // known to (src/pipeline/answer-memo.ts remembers answers that do not, or say how long they hold).
    files: ['src/domain/**/*.ts', 'src/rows/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']", message: 'Read the time through ctx.now() (src/pipeline/answer-memo.ts).' },
        { selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: 'Read the time through ctx.now() (src/pipeline/answer-memo.ts).' },
        { selector: "MemberExpression[property.name='clock']", message: 'Read the time through ctx.now() (src/pipeline/answer-memo.ts).' },
        { selector: "CallExpression[callee.object.name='performance'][callee.property.name='now']", message: 'Read the time through ctx.now() (src/pipeline/answer-memo.ts).' },
      ],
    },
  },
  // Layer rules (docs/architecture.md "Layers").
  ...layer('domain', [
    ['The domain knows no transport, pipeline, operation table or platform module: it takes a Ctx and plain input.', ['transports', 'pipeline', 'operations', 'platform', 'contract']],
    ['The domain knows no extension: extensions call the domain, not the other way round.', extensions],
  ]),
  ...layer('transports', [
    ['Transports import no extension: cross-cutting concerns are handlers of the chain (src/request-chain.ts), registered in one place.', extensions],
  ]),
  ...layer('rows', [
    ['The row layer imports nothing above it: only the store and plain types.', ['domain', 'transports', 'pipeline', 'operations', 'platform', 'contract', ...extensions]],
  ]),
);
