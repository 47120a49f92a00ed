// The authorization server's own pages (the sign-in page and its refusals) in the console's
// look: its stylesheet, its top bar, its refusal box (docs/console.md). Server-rendered HTML
// with no script at all; every value is escaped.
import type { Region } from '../context';
import { STYLE_PATH } from './metadata';

export const HTML_TYPE = 'text/html; charset=utf-8';

/** No script, no frames (clickjacking a sign-in), styles from this address only. */
export const PAGE_HEADERS = {
  'Content-Type': HTML_TYPE,
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Content-Security-Policy': "default-src 'none'; style-src 'self'; img-src 'self' data:; base-uri 'none'; frame-ancestors 'none'",
  // Not no-referrer: under it a browser sends `Origin: null` with the form's POST, which the
  // Origin check refuses (docs/security.md). same-origin names the page to itself only.
  'Referrer-Policy': 'same-origin',
};

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const esc = (s: string): string => s.replace(/[&<>"']/g, (c) => ESCAPES[c]);

/** A whole page: the console's top bar (name and region), then `main`. */
export function page(title: string, region: Region, main: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)} · Workflow Emulator</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${STYLE_PATH}">
</head>
<body>
<header class="top"><a href="/app">Workflow Emulator</a><span class="badge badge-region">${esc(region)}</span></header>
<main id="main" class="sign-in">
${main}
</main>
</body>
</html>
`;
}

/** The console's refusal box: the code, then what it means. */
export const refusalBox = (code: string, message: string): string =>
  `<div class="refusal" role="alert"><p><strong>${esc(code)}</strong></p><p>${esc(message)}</p></div>`;

/** The sign-in pages' few rules of their own, after the console's sheet. */
export const SIGN_IN_CSS = `
main.sign-in { max-width: 640px; }
.sign-in select, .sign-in input[type=text] { width: min(100%, 520px); }
.sign-in .who { margin: 4px 0 12px; }
.sign-in button.deny { background: #fff; color: var(--accent); }
.sign-in code { overflow-wrap: anywhere; }
`;
