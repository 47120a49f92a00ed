// Browser tests on any machine: when no Chromium is found the file's tests collapse into one
// skipped test whose reason says how to run them; WFE_REQUIRE_BROWSER=1 (set by .ci/run) turns
// that skip into a failure, so CI never skips them silently.
import * as nodeTest from 'node:test';
import { existsSync } from 'node:fs';

export const CHROMIUM = process.env.WFE_CHROMIUM ?? '/usr/bin/chromium';
export const BROWSER_FOUND = existsSync(CHROMIUM);
export const REQUIRE_BROWSER = /^(1|true|yes)$/i.test(process.env.WFE_REQUIRE_BROWSER ?? '');

const HOW = `install it (apt-get install -y chromium) or name it with WFE_CHROMIUM=/path/to/chromium`;
export const MISSING_REASON = `browser tests skipped: no Chromium at ${CHROMIUM}; ${HOW}`;

let announced = false;
/** The one test standing for the whole file when no browser is found. */
function announce(label: string): void {
  if (announced) return;
  announced = true;
  if (REQUIRE_BROWSER) {
    nodeTest.test(`${label}: a browser is required (WFE_REQUIRE_BROWSER)`, () => {
      throw new Error(`WFE_REQUIRE_BROWSER is set and there is no Chromium at ${CHROMIUM}: ${HOW}`);
    });
  } else {
    nodeTest.test(label, { skip: MISSING_REASON }, () => {});
  }
}

/**
 * `test`, `before` and `after` for a file that drives a browser: the real ones when Chromium is
 * there, else hooks that do nothing and tests that fold into the single announced skip.
 */
export function browserSuite(label: string) {
  if (BROWSER_FOUND) return { test: nodeTest.test, before: nodeTest.before, after: nodeTest.after };
  const fold = ((..._args: unknown[]) => announce(label)) as unknown as typeof nodeTest.test;
  const noop = ((..._args: unknown[]) => {}) as unknown as typeof nodeTest.before;
  return { test: fold, before: noop, after: noop as unknown as typeof nodeTest.after };
}
