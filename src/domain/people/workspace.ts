import type { Ctx } from '../../context';
import { iso } from '../../clock';
import { fullName } from '../../rows/people';
import { groupView, listableMembers, memberView } from './members';
import { groupsOfWorkspace } from '../../rows/people';
import { compareText } from '../paging';
import { tagCounts } from '../tags/list';
import { latestTemplates } from '../templates/list-row';

/** GET /v3/auth/test (spec v3 2.3, with the erratum: actsAs.id is the member id). */
export function authTest(ctx: Ctx) {
  const { actor, workspace } = ctx;
  const k = actor.key!; // GET /v3/auth/test is a request: its actor has its key
  const actsAs =
    actor.kind === 'workspace'
      ? { type: 'workspace' }
      : { type: 'member', id: actor.member.id, email: actor.member.email ?? undefined, name: fullName(actor.member), role: actor.member.role };
  return {
    status: 'ok',
    teamId: workspace.key,
    teamName: workspace.name,
    region: workspace.region,
    isEnterprise: workspace.is_enterprise === 1,
    apiKey: {
      name: k.name,
      createdDateTime: iso(k.created_at),
      expiresDateTime: k.expires_on ? `${k.expires_on}T23:59:59.999Z` : undefined,
      actsAs,
    },
  };
}

/** GET /v3/workspace: members, groups, tags and templates in one unpaged call (docs/decisions.md). */
export function workspaceOverview(ctx: Ctx) {
  const members = listableMembers(ctx, false)
    .map(memberView)
    .sort((a, b) => compareText(a.name ?? a.lastName ?? '', b.name ?? b.lastName ?? '') || a.id - b.id);
  const groups = groupsOfWorkspace(ctx.db, ctx.workspace.id)
    .map(groupView)
    .sort((a, b) => compareText(a.name, b.name) || a.id - b.id);
  const tags = tagCounts(ctx).sort((a, b) => compareText(a.name, b.name));
  return {
    key: ctx.workspace.key,
    name: ctx.workspace.name,
    region: ctx.workspace.region,
    isEnterprise: ctx.workspace.is_enterprise === 1,
    createdDateTime: iso(ctx.workspace.created_at),
    members,
    groups,
    tags,
    templates: latestTemplates(ctx, false),
  };
}
