// X-SVC-Timezone (spec v3 4.1 rule 7): IANA or Windows zone names.
import { validationError } from '../errors';
import { windowsZones } from './windows-zones';

const known = new Map<string, string | null>();

/** Returns the IANA name for an IANA or Windows zone name, or null when unknown. */
export function resolveZone(name: string): string | null {
  const seen = known.get(name);
  if (seen !== undefined) return seen;
  let zone: string | null = null;
  const win = windowsZones[name] ?? Object.entries(windowsZones).find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1];
  const candidate = win ?? name;
  try {
    zone = new Intl.DateTimeFormat('en-US', { timeZone: candidate }).resolvedOptions().timeZone;
  } catch {
    zone = null;
  }
  if (known.size < 10_000) known.set(name, zone);
  return zone;
}

/** The zone for text written at change time: header, else member profile, else UTC. */
export function zoneFor(header: string | null | undefined, profileZone: string | null | undefined): string {
  if (header !== null && header !== undefined) {
    const z = header.trim() === '' ? null : resolveZone(header.trim());
    if (!z) throw validationError(`Unknown time zone '${header.slice(0, 100)}'. Send an IANA name (Europe/Berlin) or a Windows name (W. Europe Standard Time).`, 'X-SVC-Timezone');
    return z;
  }
  if (profileZone) return resolveZone(profileZone) ?? 'UTC';
  return 'UTC';
}
