// Who may read and change Data Sets (spec v3 5.4, 5.5, 5.6, 5.9; legacy spec 2 and 7:
// a system Data Set is read-only, any write 403). The same rules serve both APIs.
// "A Library or Template permission" (5.4) is read as a Library.* or Template.*
// right (the rights 5.5 names, e.g. Library.Creator, Template.Creator): docs/data-sets.md.
import type { Ctx } from '../../context';
import { forbidden } from '../../errors';
import { folderPermission } from '../access/templates';
import type { DataSetRow } from './lookup';
import { systemDataSetByRef } from '../../rows/data-sets';

const passesAll = (ctx: Ctx) => ctx.actor.kind === 'workspace' || ctx.actor.isAdmin;
const ADMIN_CAN = 'An Administrator can give you the right or change the Library folder permission.';

const hasLibraryOrTemplateRight = (ctx: Ctx) => [...ctx.actor.rights].some((r) => r.startsWith('Library.') || r.startsWith('Template.'));

/** Reads: a Library or Template right, and View or Edit on the folder when filed (5.4). */
export function assertCanReadDataSets(ctx: Ctx, ds?: DataSetRow): void {
  if (passesAll(ctx)) return;
  if (!hasLibraryOrTemplateRight(ctx)) throw forbidden(`Reading Data Sets needs a Library or Template right (e.g. Library.Creator or Template.Creator), which you do not have. ${ADMIN_CAN}`);
  if (ds?.folder_id != null && folderPermission(ctx, ds.folder_id, ctx.actor.member.id) === 'Deny') {
    throw forbidden(`Your Library folder permission on the folder of Data Set "${ds.name}" is Deny, so you may not read it. ${ADMIN_CAN}`);
  }
}

export function assertNotSystem(ds: DataSetRow): void {
  if (ds.source === 'system') throw forbidden(`Data Set "${ds.name}" is a system Data Set and is read-only.`);
}

/**
 * A write naming a system Data Set (by slug or key) is 403 whatever its body (legacy 3, 7: "any
 * write gives 403"): checked before the body, the one exception to validating first. Anything
 * else (not a string, malformed, not a system set) is left to the usual checks.
 */
export function refuseSystemWrite(db: Ctx['db'], ref: unknown): void {
  if (typeof ref !== 'string') return;
  const r = ref.trim();
  const row = systemDataSetByRef(db, r);
  if (row) assertNotSystem(row);
}

/** Create a Data Set (5.5): Library.Creator. */
export function assertCanCreateDataSet(ctx: Ctx): void {
  if (!passesAll(ctx) && !ctx.actor.rights.has('Library.Creator')) throw forbidden(`Creating a Data Set needs the Library.Creator right, which you do not have. ${ADMIN_CAN}`);
}

/** Change a Data Set, its fields, records, views (5.5): not a system set; Library.Creator, and Edit on its folder when filed. */
export function assertCanChangeDataSet(ctx: Ctx, ds: DataSetRow): void {
  assertNotSystem(ds);
  if (passesAll(ctx)) return;
  if (!ctx.actor.rights.has('Library.Creator')) throw forbidden(`Changing Data Set "${ds.name}" needs the Library.Creator right, which you do not have. ${ADMIN_CAN}`);
  if (ds.folder_id != null) {
    const p = folderPermission(ctx, ds.folder_id, ctx.actor.member.id);
    if (p === 'View' || p === 'Deny') throw forbidden(`Changing Data Set "${ds.name}" needs Edit on its Library folder; your folder permission is ${p}. ${ADMIN_CAN}`);
  }
}

/** Delete a Data Set (5.6): Administrators (and the workspace key) only; a system set never. */
export function assertCanDeleteDataSet(ctx: Ctx, ds: DataSetRow): void {
  assertNotSystem(ds);
  if (!passesAll(ctx)) throw forbidden('Only Administrators may delete a Data Set; your key acts as a Member. An Administrator can do it, or create a key that acts as an Administrator or as the workspace.');
}
