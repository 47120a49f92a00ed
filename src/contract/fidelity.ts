// docs/fidelity.md, generated from the operation table: per operation, whether its behaviour
// follows the service's documentation (the spec), our design, or both, with where to read it.
// `wfe fidelity` prints it; `npm run docs:fidelity` writes the file; test/fidelity.test.ts
// checks the file matches the table.
import type { Operation } from '../operations/define';

const MARKS = ['documented', 'mixed', 'designed'] as const;

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const route = (op: Operation) => `${op.method} ${op.path.replace(/:(\w+)/g, '{$1}')}`;

export function fidelityMarkdown(ops: readonly Operation[]): string {
  const count = (m: string) => ops.filter((o) => o.fidelity.mark === m).length;
  const lines = [
    '# Fidelity: which answers come from the service, which from our design',
    '',
    '<!-- Generated from the operation table (src/operations, `fidelity` of each operation) by',
    '     `npm run docs:fidelity`; test/fidelity.test.ts fails when this file and the table differ. -->',
    '',
    'Before you switch an integration from the emulator to the service, read this. Every v3',
    'operation declares where its behaviour comes from:',
    '',
    '- **documented**: the spec shows the route, its parameters, its answer and its refusals (the',
    '  section named). What you build on it should hold against the service.',
    '- **mixed**: the spec names the route and some of its rules; the rest (usually the request',
    '  and response bodies the spec marks "not shown") is our design, described on the page named.',
    '- **designed**: the spec shows no such route; we designed it (the page says what and why).',
    '  Expect the service to differ.',
    '',
    `${ops.length} operations: ${count('documented')} documented, ${count('mixed')} mixed, ${count('designed')} designed.`,
    'The same marks are in the OpenAPI document (`x-fidelity`, `x-fidelity-source`, `x-fidelity-designed`',
    'on each operation) and in `tools/list` (each tool\'s `_meta.fidelity`); `wfe fidelity` prints this page.',
    'The legacy v1/v2 API and the emulator\'s own routes (`/_emulator`, `/app`) are outside this table:',
    'docs/legacy.md names the legacy objects we designed.',
    '',
  ];
  for (const mark of MARKS) {
    const rows = ops.filter((o) => o.fidelity.mark === mark);
    if (!rows.length) continue;
    lines.push(`## ${mark[0].toUpperCase()}${mark.slice(1)} (${rows.length})`, '');
    if (mark === 'documented') {
      lines.push('| Operation | Route | MCP tool | Spec |', '|---|---|---|---|');
      for (const o of rows) lines.push(`| \`${o.id}\` | \`${route(o)}\` | ${o.tool ? `\`${o.tool}\`` : ''} | ${cell(o.fidelity.source)} |`);
    } else {
      lines.push('| Operation | Route | MCP tool | Source | What we designed |', '|---|---|---|---|---|');
      for (const o of rows) lines.push(`| \`${o.id}\` | \`${route(o)}\` | ${o.tool ? `\`${o.tool}\`` : ''} | ${cell(o.fidelity.source)} | ${cell(o.fidelity.designed ?? '')} |`);
    }
    lines.push('');
  }
  return lines.join('\n');
}
