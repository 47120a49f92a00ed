#!/usr/bin/env node
// The package bin: runs the bundled CLI (built by `npm run prepare` / `npm run build`).
process.env.WFE_CLI = '1';
require('../dist/wfe.cjs');
