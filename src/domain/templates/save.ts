// The one path that stores a validated document: create, publish a version, copy,
// draft commit and the fixture loader all come through here. Items keep the ids
// the document carries and get new ones where it has none (spec v3 2.5).
import type { Db } from '../../store/open';
import { newGuid } from '../../ids';
import { applyTags, removeTag } from '../tags/apply';
import type { TemplateDocument } from '../../rows/template-document';
import { tagsOf } from '../../rows/tags';
import { assignIds } from './ids';
import { insertTemplate, publishVersion } from './store';

export interface SavedVersion {
  templateId: number;
  key: string;
  version: number;
}

export function saveNewTemplate(
  db: Db,
  p: { workspaceId: number; key?: string; folderId: number | null; doc: TemplateDocument; createdBy: number | null; now: number },
): SavedVersion {
  const key = p.key ?? newGuid();
  const templateId = insertTemplate(db, { key, workspaceId: p.workspaceId, folderId: p.folderId, now: p.now });
  const version = saveVersion(db, p.workspaceId, templateId, p.doc, p.createdBy, p.now);
  return { templateId, key, version };
}

export function saveVersion(db: Db, workspaceId: number, templateId: number, doc: TemplateDocument, createdBy: number | null, now: number): number {
  const stored = assignIds(doc);
  const version = publishVersion(db, templateId, stored, createdBy, now);
  syncTemplateTags(db, workspaceId, templateId, stored.tags ?? [], now);
  return version;
}

/** The template's tags are those of its latest version (tags are created on first application). */
function syncTemplateTags(db: Db, workspaceId: number, templateId: number, names: string[], now: number): void {
  const current = tagsOf(db, 'template', templateId).map((r) => r.name);
  const wanted = new Set(names.map((n) => n.trim().toLowerCase()));
  for (const n of current) if (!wanted.has(n.toLowerCase())) removeTag(db, workspaceId, 'template', templateId, n);
  applyTags(db, workspaceId, 'template', templateId, names, now);
}
