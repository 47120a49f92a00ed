// Naming assignees in requests (spec v3 2.4 "Naming an assignee", 4.6 rule 6): `{type, id}` or
// `{name}` (member full name, member email or group name, case-insensitive; ignored when `id`
// is given). Only active Administrators, Members and Guests and all groups match; an ambiguous
// name is refused listing the candidates by type and id; Unassigned, CurrentUser and
// ChecklistCreator are refused on `type`.
import type { Ctx } from '../../context';
import { validationError } from '../../errors';
import { findByName, groupInWorkspace, nameableMember, type AssigneeRef } from '../../rows/people';

export interface NamingEntry {
  type?: string;
  id?: number;
  name?: string;
}

const REFUSED_TYPES = new Set(['unassigned', 'currentuser', 'checklistcreator']);

function normaliseType(type: string, path: string): 'TeamMember' | 'Group' {
  const t = type.trim().toLowerCase();
  if (t === 'teammember') return 'TeamMember';
  if (t === 'group') return 'Group';
  if (REFUSED_TYPES.has(t)) {
    throw validationError(`${path}.type ${type} is not accepted here: name a TeamMember or a Group by {type, id} or {name}.`, `${path}.type`);
  }
  throw validationError(`${path}.type must be TeamMember or Group.`, `${path}.type`);
}

export function activeMemberExists(ctx: Ctx, id: number): boolean {
  return (
    nameableMember(ctx.db, ctx.workspace.id, id)
  );
}

const groupExists = (ctx: Ctx, id: number) =>
  groupInWorkspace(ctx.db, ctx.workspace.id, id) !== undefined;

/** Resolves one entry or throws 400 VALIDATION_ERROR with `field` = path (e.g. `assignees[0]`). */
export function resolveNaming(ctx: Ctx, e: NamingEntry, path: string, only?: 'TeamMember'): AssigneeRef {
  const type = e.type === undefined ? undefined : normaliseType(e.type, path);
  if (only && type && type !== only) throw validationError(`${path}.type must be TeamMember here: only members can be named.`, `${path}.type`);
  if (e.id !== undefined) {
    if (!type) throw validationError(`${path}.type is required with id: TeamMember or Group (member 12 and group 12 are different assignees).`, `${path}.type`);
    const ok = type === 'TeamMember' ? activeMemberExists(ctx, e.id) : groupExists(ctx, e.id);
    if (!ok) {
      throw validationError(
        type === 'TeamMember'
          ? `${path}.id ${e.id} is not an active member of this workspace (deactivated members cannot be named).`
          : `${path}.id ${e.id} is not a group of this workspace.`,
        `${path}.id`,
      );
    }
    return { type, id: e.id };
  }
  if (e.name === undefined || e.name.trim() === '') {
    throw validationError(`${path} must name someone: send {type, id} or {name}.`, path);
  }
  let found = findByName(ctx.db, ctx.workspace.id, e.name);
  const want = only ?? type;
  if (want) found = found.filter((f) => f.type === want);
  if (found.length === 0) {
    throw validationError(
      `${path}.name '${e.name}' matches no active member${want === 'TeamMember' ? '' : ' or group'} of this workspace (by full name, email${want === 'TeamMember' ? '' : ' or group name'}).`,
      `${path}.name`,
    );
  }
  if (found.length > 1) {
    const list = found.map((f) => `${f.type} ${f.id}`).join(', ');
    throw validationError(`${path}.name '${e.name}' is ambiguous: it matches ${list}. Name one of them by {type, id}.`, `${path}.name`);
  }
  return found[0];
}

/** Resolves a list, dropping repeats (first mention kept). */
export function resolveNamingList(ctx: Ctx, entries: NamingEntry[], path: string, only?: 'TeamMember'): AssigneeRef[] {
  const out: AssigneeRef[] = [];
  entries.forEach((e, i) => {
    const r = resolveNaming(ctx, e, `${path}[${i}]`, only);
    if (!out.some((o) => o.type === r.type && o.id === r.id)) out.push(r);
  });
  return out;
}
