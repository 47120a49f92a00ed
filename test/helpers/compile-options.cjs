// The esbuild options the test run compiles TypeScript with (test/run.mjs, test/helpers/compiled.cjs):
// what tsx does for a CommonJS package, plus `import()` turned into `require()` so that a test's
// dynamic import of a source file gets the module instance every other import has (tsx answers it
// through its ES module hooks, which cost each process ~0.2 s of CPU to install).
'use strict';
exports.compileOptions = {
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  sourcemap: 'inline',
  supported: { 'dynamic-import': false },
  logLevel: 'warning',
};
