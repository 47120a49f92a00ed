// The console's client (src/console/ui/) as served: in the single executable build.mjs has
// already bundled it into the embedded assets (console/app.js, console/app.css); from
// source it is bundled once, on the first page asked for, with the same esbuild options.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { packageRoot, readAsset } from '../assets';
import { Precompressed } from './compress';

export interface ClientBundle {
  js: string;
  css: string;
  /** Content hash, in the asset URLs so a browser may cache them for good. */
  version: string;
  /** The two files as sent: plain, brotli or gzip, each compressed once (compress.ts). */
  files: { js: Precompressed; css: Precompressed };
}

const withVersion = (b: Omit<ClientBundle, 'version' | 'files'>): ClientBundle => ({
  ...b,
  files: { js: new Precompressed(b.js), css: new Precompressed(b.css) },
  version: createHash('sha256').update(b.js).update('\0').update(b.css).digest('hex').slice(0, 12),
});

/** The esbuild options build.mjs uses too: one minified ES module, preact + htm inside. */
export const CLIENT_ENTRY = 'src/console/ui/main.ts';
export const clientBuildOptions = (root: string) => ({
  entryPoints: [join(root, CLIENT_ENTRY)],
  bundle: true,
  minify: true,
  format: 'esm' as const,
  target: 'es2020',
  write: false,
  legalComments: 'none' as const,
  logLevel: 'warning' as const,
});

function embedded(): ClientBundle | undefined {
  try {
    return withVersion({ js: readAsset('console/app.js'), css: readAsset('src/console/ui/style.css') });
  } catch {
    return undefined;
  }
}

async function fromSource(): Promise<ClientBundle> {
  // Only reached when running from source, where esbuild (a devDependency) is installed;
  // the executable never gets here (build.mjs marks esbuild external).
  const esbuild = await import('esbuild');
  const out = await esbuild.build(clientBuildOptions(packageRoot));
  const { readFileSync } = await import('node:fs');
  return withVersion({ js: out.outputFiles![0].text, css: readFileSync(join(packageRoot, 'src/console/ui/style.css'), 'utf8') });
}

/** Compresses the files in the background once the first page is sent, so the script's first request waits for no compression. */
function warm(b: ClientBundle): ClientBundle {
  setImmediate(() => {
    for (const f of [b.files.js, b.files.css]) for (const e of ['br', 'gzip'] as const) f.bytes(e);
  }).unref();
  return b;
}

/** A loader that bundles at most once per emulator. */
export function clientBundle(): () => Promise<ClientBundle> {
  let pending: Promise<ClientBundle> | undefined;
  return () => {
    pending ??= Promise.resolve(embedded() ?? fromSource()).then(warm).catch((e) => {
      pending = undefined;
      throw e;
    });
    return pending;
  };
}
