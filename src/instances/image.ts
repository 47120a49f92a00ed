// Prepared database images for new instances (docs/instances.md "Start-up"). Opening a
// database runs every schema block and loading the demo fixture validates templates and
// starts checklists (measured ~8 ms and ~13 ms); opening a copy of the bytes of a database
// that already went through both takes ~2 ms. The image is the built-in fixture's
// (src/fixtures/image.ts), moved to the instance's own instant, so an instance's rows are
// the rows a load at its clock writes, whether that clock is frozen or running.
import { imageBytesAt } from '../fixtures/image';
import type { FixtureSource } from '../fixtures/source';

let last: { fixture: string; at: number; bytes: Buffer } | undefined;

/** The bytes a new instance's database starts from, or undefined when the fixture has no image. */
export function preparedImage(fixture: FixtureSource, now: number): Buffer | undefined {
  // Instances made at one frozen instant share the bytes (opening copies them).
  if (last && last.fixture === fixture && last.at === now) return last.bytes;
  const bytes = imageBytesAt(fixture, now);
  if (bytes && typeof fixture === 'string') last = { fixture, at: now, bytes };
  return bytes;
}
