// JSON Merge Patch (RFC 7386; spec v3 4.1 rule 8): objects merge, null deletes,
// everything else (arrays included) replaces whole.
/* eslint-disable @typescript-eslint/no-explicit-any -- a merge patch is any JSON: its objects are walked by key whatever they hold */
const isObj = (v: unknown): v is Record<string, any> => v !== null && typeof v === 'object' && !Array.isArray(v);

export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isObj(patch)) return patch;
  const out: Record<string, any> = isObj(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    // defineProperty: a "__proto__" key is data, never the prototype.
    else Object.defineProperty(out, k, { value: mergePatch(out[k], v), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** Nesting depth without recursion (a patch deeper than any document is refused before merging). */
export function depthOf(v: unknown, limit: number): number {
  let max = 0;
  const stack: [unknown, number][] = [[v, 0]];
  while (stack.length) {
    const [n, d] = stack.pop()!;
    if (d > max) max = d;
    if (max > limit) return max;
    if (n !== null && typeof n === 'object') for (const x of Object.values(n)) stack.push([x, d + 1]);
  }
  return max;
}
