import { randomUUID, randomBytes, createHash } from 'node:crypto';

const GUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
export const isGuid = (s: unknown): s is string => typeof s === 'string' && GUID.test(s);
export const newGuid = (): string => randomUUID();
export const newToken = (bytes = 24): string => randomBytes(bytes).toString('hex');
export const sha256 = (s: string | Buffer): string => createHash('sha256').update(s).digest('hex');
/** Stable GUID derived from a seed: fixtures name things, keys follow. */
export function guidFrom(seed: string): string {
  const h = sha256(seed);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
