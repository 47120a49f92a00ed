// A value built on first use, then kept. The operation table's zod shapes and the template
// document's schema are declared through it so that a start builds none of them: each is
// built when something first validates or documents with it (docs/performance.md "Issue 24").
export function lazy<T>(make: () => T): () => T {
  let made = false;
  let value: T;
  return () => {
    if (!made) {
      value = make();
      made = true;
    }
    return value;
  };
}

/**
 * A built-in module loaded when first needed rather than at start-up (node:https for the first
 * https webhook delivery, node:fs/promises for the first body spilled to a file).
 * process.getBuiltinModule exists from Node 20.16; earlier Node 20 releases, which the
 * project still supports, load it through require.
 */
export function builtin<T>(name: string): T {
  const get = (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the fallback for Node 20 before 20.16, which has no getBuiltinModule
  return (typeof get === 'function' ? get(name) : require(name)) as T;
}
