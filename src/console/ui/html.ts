// htm over preact: tagged templates instead of JSX, so the client needs no JSX step.
// Interpolated values are text (preact sets textContent), never parsed as HTML, and the
// console never uses dangerouslySetInnerHTML: names, comments and answers with markup in
// them are shown as the characters they are.
import { h } from 'preact';
import htm from 'htm';

export const html = htm.bind(h);
