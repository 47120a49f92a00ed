// GET /api/authentication/validate (legacy spec 4.1): 200 for a working key (any bad key is
// 401 before this runs). The body is "not shown": designed in docs/legacy.md.
import type { Ctx } from '../../context';
import { fullName } from '../../rows/people';
import { defineLegacyRoute } from '../define';

export function validateLegacy(ctx: Ctx) {
  const member = ctx.actor.kind === 'member' ? ctx.actor.member : null;
  return {
    isValid: true,
    teamId: ctx.workspace.key,
    teamName: ctx.workspace.name,
    userId: member?.id ?? 0,
    userName: member ? (fullName(member) ?? member.email ?? null) : 'Anonymous',
    isAdministrator: ctx.actor.isAdmin,
  };
}

export const authenticationLegacyRoutes = [defineLegacyRoute({ method: 'GET', path: '/api/authentication/validate', handler: (ctx) => validateLegacy(ctx) })];
