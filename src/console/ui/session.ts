// Who the console acts as (an API key) and the admin token, kept in the browser. A change
// notifies every subscriber so pages re-read with the new identity.

const KEY = 'wfe.console.key';
const TOKEN = 'wfe.console.adminToken';
const listeners = new Set<() => void>();

const read = (store: Storage, k: string) => {
  try {
    return store.getItem(k) ?? '';
  } catch {
    return '';
  }
};
const write = (store: Storage, k: string, v: string) => {
  try {
    if (v) store.setItem(k, v);
    else store.removeItem(k);
  } catch {
    /* private mode: the value lives until reload */
  }
};

// No key stored: the page asks who to act as (pages/choose.ts) rather than take config.defaultKey.
let key = read(localStorage, KEY);
let token = read(sessionStorage, TOKEN);

export const session = {
  get key() {
    return key;
  },
  get token() {
    return token;
  },
  setKey(v: string) {
    key = v.trim();
    write(localStorage, KEY, key);
    listeners.forEach((l) => l());
  },
  setToken(v: string) {
    token = v.trim();
    write(sessionStorage, TOKEN, token);
    listeners.forEach((l) => l());
  },
  subscribe(l: () => void) {
    listeners.add(l);
    return () => listeners.delete(l);
  },
};
