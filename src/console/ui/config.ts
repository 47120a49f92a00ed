// What the server put in the page (src/console/routes.ts consoleConfig).
export interface ConsoleConfig {
  region: 'US' | 'EU';
  baseUrls: { US: string; EU: string };
  /** open: /_emulator needs nothing; token: a sign-in with --admin-token; off: --no-admin. */
  admin: 'open' | 'token' | 'off';
  fixture: string;
  /** The key a first visit acts as (only when /_emulator is open to anyone). */
  defaultKey?: string;
}

export const config: ConsoleConfig = JSON.parse(document.getElementById('wfe-config')?.textContent ?? '{}');
