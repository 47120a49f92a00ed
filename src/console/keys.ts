// The fixture's keys for the console's picker. The database keeps only key hashes, so
// the picker reads them from the fixture the emulator was seeded with (like `wfe keys`).
// Served under /_emulator (so --admin-token guards it and --no-admin hides it).
import { fixtureKeys as keysOf } from '../fixtures/keys';
import type { FixtureSource } from '../fixtures/load';

export interface PickerKey {
  key: string;
  name: string;
  workspace: string;
  region: string;
  actsAs: string;
  /** Why the key is refused, when the fixture says it will be. */
  state?: 'revoked' | 'expired' | 'unavailable';
}

/** The picker's keys: the fixture's keys (src/fixtures/keys.ts) in the console's words. */
export function fixtureKeys(fixture: FixtureSource, now: number): PickerKey[] {
  try {
    return keysOf(fixture, now).map((k) => ({
      key: k.key,
      name: k.key,
      workspace: k.workspace.replace(/ \((US|EU)\)$/, ''),
      region: k.region,
      actsAs: k.actsAs,
      ...(k.state !== 'active' ? { state: k.state } : {}),
    }));
  } catch {
    return [];
  }
}

/** The key a first visit acts as: the first working member key of the address's region. */
export function defaultKey(fixture: FixtureSource, region: string, now: number): string | undefined {
  return fixtureKeys(fixture, now).find((k) => k.region === region && !k.state && k.actsAs !== 'the workspace')?.key;
}
