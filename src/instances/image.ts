// Prepared database images for new instances (docs/instances.md "Start-up"). Opening a
// database runs every schema block and loading the demo fixture validates templates and
// starts checklists (measured ~8 ms and ~13 ms); opening a copy of the bytes of a database
// that already went through both takes ~2 ms. Only built-in fixtures get an image: they are
// embedded and never change, while a directory on disk may be edited between instances.
import { openDb } from '../store/open';
import { loadFixture } from '../fixtures/load';
import { fixtureNames, type FixtureSource } from '../fixtures/source';

/**
 * A load writes the clock's instant into rows (created times, relative due dates), so an
 * image serves a frozen clock only at the instant it was taken. A running clock takes an
 * image up to this old: the instance then looks as if it had been started that much
 * earlier and left idle, as the main emulator is between its start and a test's requests.
 */
export const IMAGE_MAX_AGE_MS = 10_000;

let schema: Buffer | undefined;
const images = new Map<string, { at: number; bytes: Buffer }>();

export const isBuiltIn = (fixture: FixtureSource): fixture is string => typeof fixture === 'string' && (fixture === 'none' || fixtureNames().includes(fixture));

/** The bytes a new instance's database starts from, or undefined when the fixture has no image. */
export function preparedImage(fixture: FixtureSource, now: number, frozen: boolean): Buffer | undefined {
  if (!isBuiltIn(fixture)) return undefined;
  if (!schema) {
    const db = openDb();
    schema = db.serialize();
    db.close();
  }
  if (fixture === 'none') return schema;
  const image = images.get(fixture);
  if (image && (image.at === now || (!frozen && now >= image.at && now - image.at <= IMAGE_MAX_AGE_MS))) return image.bytes;
  const db = openDb(undefined, schema);
  try {
    loadFixture(db, fixture, now);
    const bytes = db.serialize();
    images.set(fixture, { at: now, bytes });
    return bytes;
  } finally {
    db.close();
  }
}
