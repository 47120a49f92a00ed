// Small shared pieces: the refusal box (the API's words), loading, dates, status badges.
import type { ComponentChildren } from 'preact';
import { html } from './html';
import type { Answer, ApiErrorBody } from './api';
import { appPath } from './api';
import { config } from './config';

/** A refusal exactly as the API sent it: status, code, message, field, requestId, url. */
/**
 * The label of the control a refusal's `field` names, from the form's own map of API field
 * names to labels: the whole field (`recurrence.frequency`), else its first part (`parameters`).
 */
export function labelOf(field: unknown, labels: Record<string, string> | undefined): string | undefined {
  if (typeof field !== 'string' || !labels) return undefined;
  return labels[field] ?? labels[field.split(/[.[]/)[0]];
}

export function Refusal({ status, error, what, fieldLabel, labels }: { status: number; error: ApiErrorBody; what?: string; fieldLabel?: string; labels?: Record<string, string> }) {
  fieldLabel ??= labelOf(error.field, labels);
  const other = error.code === 'WRONG_REGION' && typeof error.url === 'string' ? error.url.replace(/\/v3\/.*$/, '') : undefined;
  return html`<div class="refusal" role="alert" data-testid="refusal">
    <p class="refusal-head"><strong>${what ? `${what}: ` : ''}${status ? `${status} ` : ''}${error.code}</strong></p>
    <p class="refusal-message">${error.message}</p>
    ${fieldLabel !== undefined ? html`<p>at <strong>${fieldLabel}</strong></p>` : error.field !== undefined && html`<p>field: <code>${String(error.field)}</code></p>`}
    ${other && html`<p>This key belongs to the other region: open <a href=${other + location.pathname}>${other + location.pathname}</a>.</p>`}
    ${error.requestId && html`<p class="muted">requestId <code>${error.requestId}</code></p>`}
  </div>`;
}

export const FIRST_CONTENT = 'wfe-first-content';

/** Renders a read: loading, the refusal, or `children(body)`. */
export function Loaded<T>({ answer, what, children }: { answer?: Answer<T>; what?: string; children: (body: T) => ComponentChildren }) {
  if (!answer) return html`<p class="muted" aria-busy="true">Loading…</p>`;
  if (!answer.ok) return html`<${Refusal} status=${answer.status} error=${answer.error!} what=${what} />`;
  // The first content of the page load, for measuring (README "Web console": first page).
  if (!performance.getEntriesByName(FIRST_CONTENT).length) requestAnimationFrame(() => performance.getEntriesByName(FIRST_CONTENT).length || performance.mark(FIRST_CONTENT));
  return html`${children(answer.body)}`;
}

export function when(v: string | undefined): string {
  if (!v) return '';
  const d = new Date(v);
  if (Number.isNaN(d.getTime())) return v;
  return d.toISOString().replace('T', ' ').replace(/:\d\d\.\d+Z$|:\d\dZ$/, ' UTC');
}

export function Time({ value }: { value?: string }) {
  if (!value) return null;
  return html`<time datetime=${value}>${when(value)}</time>`;
}

export function Badge({ kind, children, testid }: { kind: string; children: ComponentChildren; testid?: string }) {
  return html`<span class=${`badge badge-${kind}`} data-testid=${testid}>${children}</span>`;
}

export function Link({ url, children }: { url?: string; children: ComponentChildren }) {
  return html`<a href=${appPath(url)}>${children}</a>`;
}

export const isOverdue = (t: { dueDateTime?: string; status?: string; isHeading?: boolean }, now: number) =>
  !t.isHeading && t.status === 'Incomplete' && !!t.dueDateTime && Date.parse(t.dueDateTime) < now;

export function names(list: { name?: string; id?: number; type?: string }[] | undefined): string {
  return (list ?? []).map((a) => a.name ?? `${a.type ?? ''} ${a.id ?? ''}`.trim()).join(', ');
}

/** Scrollable wide content: focusable and named, so keyboard users can scroll it. */
export function Wide({ label, children }: { label: string; children: ComponentChildren }) {
  return html`<div class="wide" role="region" aria-label=${label} tabindex="0">${children}</div>`;
}

export const otherRegion = () => (config.region === 'US' ? 'EU' : 'US');
