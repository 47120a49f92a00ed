// Values the generator draws from: every GUID and integer id the demo fixture
// names (so generated requests reach real resources of both workspaces), every
// fixture key, and the awkward strings bad input is made of.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { DEMO, KEYS, ROOT } from '../helpers/server';

const GUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

function fixtureText(): string {
  const dir = join(ROOT, 'fixtures', 'demo');
  let text = readFileSync(join(dir, 'fixture.json'), 'utf8');
  for (const f of readdirSync(join(dir, 'templates'))) text += readFileSync(join(dir, 'templates', f), 'utf8');
  return text;
}

export const FIXTURE_GUIDS: string[] = [...new Set(fixtureText().match(GUID) ?? [])];

export const FIXTURE_INTS: number[] = [...Object.values(DEMO.members), ...Object.values(DEMO.groups), 1, 2];

/** Every fixture key, plus no key, an empty one and one nobody has. */
export const ALL_KEYS: (string | null)[] = [...Object.values(KEYS), null, '', 'no-such-key'];

/** Keys that authenticate (most requests use one of these so they get past 401). */
export const GOOD_KEYS: string[] = [KEYS.admin, KEYS.owner, KEYS.member, KEYS.noperm, KEYS.workspace, KEYS.globexAdmin, KEYS.globexWorkspace];

export const NASTY_STRINGS: string[] = [
  '',
  ' ',
  '\u0000',
  'null',
  'undefined',
  'true',
  '0',
  '-1',
  '1e309',
  'NaN',
  '../../etc/passwd',
  '..%2F..%2Fv3%2Fauth%2Ftest',
  '%2e%2e%2f',
  '<script>alert(1)</script>',
  '"; DROP TABLE templates; --',
  "' OR '1'='1",
  '\u202e\u0644\u0639\u0631\u0628\u064a\u0629',
  '\ud83d\ude00\ud83d\udca9',
  '\ud800',
  '\udfff',
  'a\r\nX-Injected: 1',
  '\u200b\u200c\u200d\ufeff',
  'ＡＢＣ',
  '${jndi:ldap://x}',
  '{{7*7}}',
  '%s%s%s%n',
  'x'.repeat(1001),
];
