// Stored files: File Upload answers and comment attachments (spec v3 4.1 rule 1: bytes as base64
// in JSON, never multipart). Each file has a secret token; its url needs no API key (2.4).
import { fileInfosOfField, insertFile, type FileInfo, type FileRow } from '../../rows/files';
import type { Ctx } from '../../context';
import { iso } from '../../clock';
import { validationError } from '../../errors';
import { newToken } from '../../ids';
import { fileUrl } from '../urls';
import { userRef } from '../users';

/** Largest file accepted, decoded (docs/tasks.md). */
export const MAX_FILE_BYTES = 5 * 1024 * 1024;

export type { FileRow };

const BASE64 = /^[A-Za-z0-9+/\r\n]*={0,2}$|^[A-Za-z0-9_\-\r\n]*$/;
const CONTENT_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/i;

export interface FileInput {
  name: string;
  contentType?: string;
  data: string;
}

/** Decodes and checks an uploaded file; refusals name the property under `path`. */
export function decodeFile(f: FileInput, prefix: string): { name: string; contentType: string; bytes: Buffer } {
  const at = (k: string) => (prefix ? `${prefix}.${k}` : k);
  const name = f.name.trim();
  if (!name) throw validationError(`${at('name')} must not be empty.`, at('name'));
  const contentType = (f.contentType ?? 'application/octet-stream').trim().toLowerCase();
  if (!CONTENT_TYPE.test(contentType)) throw validationError(`${at('contentType')} must be a media type such as application/pdf.`, at('contentType'));
  const text = f.data.replace(/\s+/g, '');
  if (!BASE64.test(text) || text.length % 4 === 1) throw validationError(`${at('data')} is not valid base64.`, at('data'));
  // The decoded size from the text's length: an oversized file is refused before it is decoded (docs/reliability.md 9).
  const size = Math.floor((text.length * 3) / 4) - (text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0);
  if (size > MAX_FILE_BYTES) throw validationError(`${at('data')} is ${size} bytes once decoded; the limit is ${MAX_FILE_BYTES} bytes (5 MB).`, at('data'));
  const bytes = Buffer.from(text, /[-_]/.test(text) ? 'base64url' : 'base64');
  if (bytes.length === 0) throw validationError(`${at('data')} must not be empty.`, at('data'));
  if (bytes.length > MAX_FILE_BYTES) {
    throw validationError(`${at('data')} is ${bytes.length} bytes once decoded; the limit is ${MAX_FILE_BYTES} bytes (5 MB).`, at('data'));
  }
  return { name: name.slice(0, 255), contentType, bytes };
}

export function storeFile(ctx: Ctx, taskId: number, fieldKey: string | null, f: { name: string; contentType: string; bytes: Buffer }): number {
  return insertFile(ctx.db, {
    workspace_id: ctx.workspace.id,
    task_id: taskId,
    field_key: fieldKey,
    name: f.name,
    content_type: f.contentType,
    data: f.bytes,
    token: newToken(24),
    created_at: ctx.now(),
    created_by: ctx.actor.member.id,
  });
}

export function fileView(ctx: Ctx, f: FileInfo) {
  return {
    id: f.id,
    name: f.name,
    contentType: f.content_type,
    size: f.size,
    url: fileUrl(ctx, f.token),
    createdDateTime: iso(f.created_at),
    createdBy: userRef(ctx.db, f.created_by),
  };
}

export function fieldFiles(ctx: Ctx, taskId: number, fieldKey: string) {
  return fileInfosOfField(ctx.db, taskId, fieldKey).map((f) => fileView(ctx, f));
}
