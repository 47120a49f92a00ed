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
