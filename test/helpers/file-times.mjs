// A node:test reporter test/run.mjs adds beside the one you see: it writes, as JSON, how long each
// test file's tests took (the sum of its top-level tests), so that the next run starts the longest
// files first and a long file does not begin last, alone, while the other cores sit idle.
export default async function* fileTimes(source) {
  const ms = {};
  for await (const event of source) {
    if ((event.type === 'test:pass' || event.type === 'test:fail') && event.data.nesting === 0 && event.data.file) {
      ms[event.data.file] = (ms[event.data.file] ?? 0) + (event.data.details?.duration_ms ?? 0);
    }
  }
  yield JSON.stringify(ms);
}
