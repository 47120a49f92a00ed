// A short fingerprint of an API key (FNV-1a, 32 bits): the page shell says which key its
// first data was read with, and the client uses that data only when it acts with the same
// key. A match check, not a secret: the page is served only to the browser session that
// followed that key. Shared by the server (src/console/preload.ts) and the client.
export function keyHash(key: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}
