// The console's script and stylesheet sent compressed (issue 40): brotli or gzip, chosen by the
// request's Accept-Encoding, each made once per bundle hash and kept (a hash never changes its
// bytes), so a request costs no compression. node:zlib is loaded on the first compressed answer,
// not at start-up (src/lazy.ts `builtin`).
import type * as Zlib from 'node:zlib';
import { builtin } from '../lazy';

export type Encoding = 'br' | 'gzip' | 'identity';

/**
 * The encoding to send for an Accept-Encoding header (RFC 9110 12.5.3): brotli when it is
 * acceptable, else gzip, else none. `q=0` refuses a coding; `*` stands for any not named.
 * Between two acceptable codings the higher q wins, brotli on a tie (the smaller file).
 */
export function chooseEncoding(header: string | null): Encoding {
  if (!header) return 'identity';
  const q = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const qp = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const v = qp ? Number(qp.slice(2)) : 1;
    q.set(name.trim(), Number.isFinite(v) ? v : 0);
  }
  const of = (name: string) => q.get(name) ?? (name === 'gzip' ? q.get('x-gzip') : undefined) ?? q.get('*') ?? 0;
  const br = of('br');
  const gz = of('gzip');
  if (br > 0 && br >= gz) return 'br';
  if (gz > 0) return 'gzip';
  return 'identity';
}

const zlib = () => builtin<typeof Zlib>('node:zlib');

function compress(text: string, encoding: Exclude<Encoding, 'identity'>): Uint8Array<ArrayBuffer> {
  const z = zlib();
  const bytes = Buffer.from(text, 'utf8');
  const out =
    encoding === 'br'
      ? z.brotliCompressSync(bytes, { params: { [z.constants.BROTLI_PARAM_QUALITY]: 11, [z.constants.BROTLI_PARAM_MODE]: z.constants.BROTLI_MODE_TEXT, [z.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } })
      : z.gzipSync(bytes, { level: 9 });
  return new Uint8Array(out);
}

/** One text file in each encoding, made on first request of that encoding and kept. */
export class Precompressed {
  private readonly made = new Map<Encoding, Uint8Array<ArrayBuffer>>();
  constructor(readonly text: string) {}

  bytes(encoding: Encoding): Uint8Array<ArrayBuffer> {
    let b = this.made.get(encoding);
    if (!b) {
      b = encoding === 'identity' ? new TextEncoder().encode(this.text) : compress(this.text, encoding);
      this.made.set(encoding, b);
    }
    return b;
  }
}
