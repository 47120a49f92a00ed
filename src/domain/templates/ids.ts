// Item ids of a template document. A stored version carries an id on every task,
// field, option, item, column, condition and notification; task ids are task keys
// and field ids are field keys (spec v3 2.1, 2.5: a key survives a new version when
// the document keeps the item's id).
import type { Db } from '../../store/open';
import { newGuid } from '../../ids';
import { parseStoredDocument, type TemplateDocument } from '../../rows/template-document';
import { versionDocumentTexts } from '../../rows/templates';

export const ID_KINDS = ['task', 'field', 'option', 'column', 'condition', 'notification'] as const;
export type IdKind = (typeof ID_KINDS)[number];
export type KnownIds = Record<IdKind, Set<string>>;

/* eslint-disable @typescript-eslint/no-explicit-any -- the visitor walks a template document before it is validated: any shape may stand there */
type Visitor = (node: any, kind: IdKind) => void;

export function eachItem(doc: TemplateDocument, visit: Visitor): void {
  for (const t of doc.tasks ?? []) {
    visit(t, 'task');
    for (const f of t.fields ?? []) {
      visit(f, 'field');
      const ff = f as any;
      for (const o of ff.options ?? []) visit(o, 'option');
      for (const o of ff.items ?? []) visit(o, 'option');
      for (const o of ff.columns ?? []) visit(o, 'column');
    }
  }
  for (const c of doc.conditions ?? []) visit(c, 'condition');
  for (const n of doc.notifications ?? []) visit(n, 'notification');
}

/** Every id any version of the template has used, by kind (lower case). Rollback re-uses old ids. */
export function knownIds(db: Db, templateId: number): KnownIds {
  const out = Object.fromEntries(ID_KINDS.map((k) => [k, new Set<string>()])) as KnownIds;
  for (const text of versionDocumentTexts(db, templateId)) eachItem(parseStoredDocument(text), (n, kind) => typeof n?.id === 'string' && out[kind].add(n.id.toLowerCase()));
  return out;
}

/** Gives items without an id a new one, keeping the item's property order with id first. */
export function assignIds(doc: TemplateDocument): TemplateDocument {
  const copy = structuredClone(doc);
  eachItem(copy, (n) => {
    if (!n || typeof n !== 'object') return;
    const id = typeof n.id === 'string' ? n.id.toLowerCase() : newGuid();
    const rest = { ...n };
    delete rest.id;
    for (const k of Object.keys(n)) delete n[k];
    Object.assign(n, { id }, rest);
  });
  return copy;
}

/** The document without any id (copy, and the create path of a copied draft). */
export function stripIds(doc: TemplateDocument): TemplateDocument {
  const copy = structuredClone(doc);
  eachItem(copy, (n) => {
    if (n && typeof n === 'object') delete n.id;
  });
  return copy;
}
