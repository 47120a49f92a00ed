// Loads the project's TypeScript from the JavaScript that `npm test` (test/run.mjs) compiled once
// for the whole run, instead of each test process transpiling and hashing every file through tsx
// again (measured: loading src through tsx costs ~0.85 s of CPU per process even with its cache
// warm, against ~0.3 s for the same modules already compiled; the suite starts ~100 test
// processes and more CLI children).
//
// test/run.mjs writes a one-line preload into the folder it compiled into (the tree under the
// project root, mirrored, `.ts` -> `.js`), which calls install() with that folder; test processes
// and the CLI children they start (test/helpers/server.ts `fromSource`) are run with
// `node --require <folder>/preload.cjs`. Each module is compiled under its own file name, so
// `__dirname`, `require` resolution and module identity are the same as from source. A `.ts` file the run did not compile (written after it started) is
// transformed here by esbuild, as tsx would.
'use strict';
const Module = require('node:module');
const { readFileSync } = require('node:fs');
const { join, relative, sep } = require('node:path');

const root = join(__dirname, '..', '..');
/** The options test/run.mjs compiles with; shared so a late file is compiled the same way. */
const { compileOptions } = require('./compile-options.cjs');

exports.install = function install(compiled) {
  Module._extensions['.ts'] = function loadCompiled(module, filename) {
    const rel = relative(root, filename);
    let code;
    if (!rel.startsWith('..') && !rel.startsWith(sep)) {
      try {
        code = readFileSync(join(compiled, rel.replace(/\.ts$/, '.js')), 'utf8');
      } catch {
        code = undefined;
      }
    }
    if (code === undefined) {
      const { transformSync } = require('esbuild');
      code = transformSync(readFileSync(filename, 'utf8'), { ...compileOptions, loader: 'ts', sourcefile: filename }).code;
    }
    module._compile(code, filename);
  };
};
