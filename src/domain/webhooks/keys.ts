// What a scope key may name (spec v3 6 rule 5: scope keys are template keys).
// A key that names nothing in the workspace is refused with 400 on the scope key.
import type { Db } from '../../store/open';
import { parseStoredDocument, type DocField } from '../../rows/template-document';
import { allVersionDocumentTexts, templateByKey } from '../../rows/templates';
import { standaloneTaskKeyExists } from '../../rows/event-facts';

function* documents(db: Db, workspaceId: number) {
  for (const text of allVersionDocumentTexts(db, workspaceId)) yield parseStoredDocument(text);
}

export function templateExists(db: Db, workspaceId: number, key: string): boolean {
  return templateByKey(db, workspaceId, key) !== undefined;
}

/** A template task's key (any version) or a standalone task's key. */
export function taskKeyExists(db: Db, workspaceId: number, key: string): boolean {
  const k = key.toLowerCase();
  if (standaloneTaskKeyExists(db, workspaceId, key)) return true;
  for (const d of documents(db, workspaceId)) if (d.tasks.some((t) => t.id?.toLowerCase() === k)) return true;
  return false;
}

/** The template field with this key (any version), if any. */
export function findTemplateField(db: Db, workspaceId: number, key: string): DocField | undefined {
  const k = key.toLowerCase();
  for (const d of documents(db, workspaceId)) for (const t of d.tasks) for (const f of t.fields ?? []) if (f.id?.toLowerCase() === k) return f;
  return undefined;
}
