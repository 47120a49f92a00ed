// The fixture's keys for the console's picker. The database keeps only key hashes, so
// the picker reads them from the fixture the emulator was seeded with (like `wfe keys`).
// Served under /_emulator (so --admin-token guards it and --no-admin hides it).
import { existsSync, readFileSync } from 'node:fs';
import { readAsset } from '../assets';
import type { Emulator } from '../emulator';
import type { ExtraRoute } from '../transports/http/app';
import { json } from '../transports/http/respond';

export interface PickerKey {
  key: string;
  name: string;
  workspace: string;
  region: string;
  actsAs: string;
  /** Why the key is refused, when the fixture says it will be. */
  state?: 'revoked' | 'expired' | 'unavailable';
}

/* eslint-disable @typescript-eslint/no-explicit-any */
export function fixtureKeys(fixture: string, now: number): PickerKey[] {
  if (fixture === 'none') return [];
  try {
    const text = existsSync(fixture) && fixture.endsWith('.json') ? readFileSync(fixture, 'utf8') : readAsset(`fixtures/${fixture}/fixture.json`);
    const fx = JSON.parse(text);
    const out: PickerKey[] = [];
    for (const ws of fx.workspaces ?? []) {
      for (const k of ws.keys ?? []) {
        const m = (ws.members ?? []).find((x: { id: number }) => x.id === k.member);
        const expired = k.expiresOn && Date.parse(`${k.expiresOn}T00:00:00Z`) + 86_400_000 <= now;
        const state = k.revokedOn ? 'revoked' : expired ? 'expired' : m?.isActive === false ? 'unavailable' : undefined;
        out.push({
          key: k.key,
          name: k.name ?? k.key,
          workspace: ws.name,
          region: ws.region,
          actsAs: m ? `${`${m.firstName ?? ''} ${m.lastName ?? ''}`.trim()}, ${m.role}` : 'the workspace',
          state,
        });
      }
    }
    return out;
  } catch {
    return [];
  }
}

/** The key a first visit acts as: the first working member key of the address's region. */
export function defaultKey(fixture: string, region: string, now: number): string | undefined {
  return fixtureKeys(fixture, now).find((k) => k.region === region && !k.state && k.actsAs !== 'the workspace')?.key;
}

/** GET /_emulator/console/keys: {items: [PickerKey]}. */
export const consoleKeysRoute: ExtraRoute = (req, info, emu: Emulator) => {
  const path = new URL(req.url).pathname.replace(/\/+$/, '');
  if (path !== '/_emulator/console/keys' || req.method !== 'GET') return undefined;
  return json(200, { items: fixtureKeys(emu.fixture, emu.clock.now()) }, { 'X-Request-Id': info.requestId });
};
