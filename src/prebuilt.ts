// What the build makes from the built-in operation table (build.mjs embeds it beside the
// fixture images): the OpenAPI document's paths and the MCP tools/list entries. Both are
// zod -> JSON Schema for every operation and do not depend on the server: measured on a fresh
// `wfe serve`, making them took RSS from 72 to 157 MB (GET /v3/openapi.json, ~1.2 s of CPU)
// and +25 MB (tools/list, ~0.2 s), the peak of issue 24.
//
// Carried compressed (brotli, base64): as plain text the two made the bundle 3.3 -> 7.0 MB, and
// a fresh server's RSS 73 -> 84 MB (90 at its peak) before any request, for V8 holds the
// script's source and each literal once more; compressed they are ~60 kB, unpacked in ~10 ms.
//
// Used only for the built-in table (a test may serve its own, src/emulator.ts `ops`); from
// source there are no build-made assets, so tests run the live build, and test/sea.test.ts
// holds what the bundle serves to it byte for byte.
import type * as Zlib from 'node:zlib';
import { builtAsset } from './assets';
import { builtin } from './lazy';
import { operations } from './operations';
import type { Operation } from './operations/define';
import { openApiPathsText } from './openapi';
import { CompiledTable } from './contract/compile';
import type { ToolDef } from './contract/tool';

const OPENAPI_PATHS = 'prebuilt/openapi-paths.json.br';
const MCP_TOOLS = 'prebuilt/mcp-tools.json.br';

const zlib = () => builtin<typeof Zlib>('node:zlib');

function pack(text: string): string {
  const z = zlib();
  const bytes = Buffer.from(text, 'utf8');
  return z.brotliCompressSync(bytes, { params: { [z.constants.BROTLI_PARAM_QUALITY]: 11, [z.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }).toString('base64');
}

function unpacked(rel: string): string | undefined {
  const packed = builtAsset(rel);
  return packed === undefined ? undefined : zlib().brotliDecompressSync(Buffer.from(packed, 'base64')).toString('utf8');
}

/** The assets build.mjs embeds, made by the code the bundle carries. */
export function prebuiltAssets(): Record<string, string> {
  return {
    [OPENAPI_PATHS]: pack(openApiPathsText(operations)),
    [MCP_TOOLS]: pack(JSON.stringify(new CompiledTable(operations).toolDefs)),
  };
}

/** The OpenAPI `paths` text the build made, when `ops` is the table it was made from. */
export const prebuiltOpenApiPaths = (ops: readonly Operation[]): string | undefined => (ops === operations ? unpacked(OPENAPI_PATHS) : undefined);

let toolDefs: ToolDef[] | undefined;

/** The tools/list entries the build made, when `ops` is the table it was made from; parsed once per process. */
export function prebuiltToolDefs(ops: readonly Operation[]): ToolDef[] | undefined {
  if (ops !== operations) return undefined;
  if (!toolDefs) {
    const text = unpacked(MCP_TOOLS);
    if (text !== undefined) toolDefs = JSON.parse(text) as ToolDef[];
  }
  return toolDefs;
}
