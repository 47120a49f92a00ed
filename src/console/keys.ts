// The fixture's keys for the console's picker. The database keeps only key hashes, so
// the picker reads them from the fixture the emulator was seeded with (like `wfe keys`).
// Served under /_emulator (so --admin-token guards it and --no-admin hides it).
import { fixtureKeys as keysOf } from '../fixtures/keys';
import { checkFixture, type FixtureSource } from '../fixtures/load';
import { embeddedDocument } from '../fixtures/image';

export interface PickerKey {
  key: string;
  name: string;
  workspace: string;
  region: string;
  actsAs: string;
  /** Why the key is refused, when the fixture says it will be. */
  state?: 'revoked' | 'expired' | 'unavailable';
  /**
   * The zone the API uses for what the key does (spec v3 4.1 rule 7): its member's profile zone,
   * else UTC. The API shows no member's zone, so the console's date picker learns it here.
   */
  timeZone?: string;
}

/** Each member's profile zone in the fixture, by workspace key and member id. */
function profileZones(fixture: FixtureSource): Map<string, string> {
  const out = new Map<string, string>();
  if (fixture === 'none') return out;
  const doc = embeddedDocument(fixture) ?? checkFixture(fixture).doc;
  for (const ws of doc.workspaces) for (const m of ws.members) if (m.timeZone) out.set(`${ws.key.toLowerCase()}:${m.id}`, m.timeZone);
  return out;
}

/** The picker's keys: the fixture's keys (src/fixtures/keys.ts) in the console's words. */
export function fixtureKeys(fixture: FixtureSource, now: number): PickerKey[] {
  try {
    const zones = profileZones(fixture);
    return keysOf(fixture, now).map((k) => ({
      key: k.key,
      name: k.key,
      workspace: k.workspace.replace(/ \((US|EU)\)$/, ''),
      region: k.region,
      actsAs: k.actsAs,
      ...(k.state !== 'active' ? { state: k.state } : {}),
      timeZone: (k.memberId !== undefined && zones.get(`${k.workspaceKey.toLowerCase()}:${k.memberId}`)) || 'UTC',
    }));
  } catch {
    return [];
  }
}

/** The key a first visit acts as: the first working member key of the address's region. */
export function defaultKey(fixture: FixtureSource, region: string, now: number): string | undefined {
  return fixtureKeys(fixture, now).find((k) => k.region === region && !k.state && k.actsAs !== 'the workspace')?.key;
}
