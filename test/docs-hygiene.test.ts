// A merge left half-done once shipped its conflict markers in docs/architecture.md; this keeps
// every tracked text file free of them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './helpers/server';

test('no tracked text file carries merge conflict markers', () => {
  const files = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter((f) => /\.(md|ts|tsx|mjs|cjs|js|json|sql|yml|yaml|py|css|html)$/.test(f) || f === '.ci/run');
  assert.ok(files.length > 50, 'git lists the tree');
  const marked = files.filter((f) => /^(<{7} |={7}$|>{7} )/m.test(readFileSync(join(ROOT, f), 'utf8')));
  assert.deepEqual(marked, []);
});
