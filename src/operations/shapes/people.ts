// Workspace, key and people shapes (spec v3 2.3, 2.6; GET /v3/workspace: docs/decisions.md).
import { z } from 'zod';
import { count, guidOut, intIdOut, timestamp } from './common';
import { templateRow } from './templates';
import { lazy } from '../../lazy';

/** Member (2.6). */
export const member = lazy(() => z
  .strictObject({
    id: intIdOut('Member id'),
    type: z.literal('TeamMember').describe('Assignee type of a member'),
    name: z.string().optional().describe('Full name "First Last" (the surname alone for a member with no first name, spec v3 2.6); absent only for a member with no name at all'),
    firstName: z.string().optional().describe('First name; absent when none'),
    lastName: z.string().optional().describe('Last name; absent when none'),
    email: z.string().optional().describe('Email; absent when none'),
    role: z.enum(['Administrator', 'Member', 'Guest']).describe('Role in the workspace'),
    isActive: z.boolean().describe('False for a deactivated member'),
  })
  .describe('Member'));

/** Group (2.6). */
export const group = lazy(() => z
  .strictObject({
    id: intIdOut('Group id (member 12 and group 12 are different assignees)'),
    type: z.literal('Group').describe('Assignee type of a group'),
    name: z.string().describe('Group name'),
  })
  .describe('Group'));

/** A single-group read adds its members (2.6). */
export const groupDetail = lazy(() => group().extend({ members: z.array(member()).describe('Members of the group, by name') }).describe('Group with its members'));

/** Tag (2.6): total is not the sum of the three (tags also sit on articles and files the API does not reach). */
export const tag = lazy(() => z
  .strictObject({
    name: z.string().describe('Tag name (tags are identified by name)'),
    checklists: count('Checklists carrying it'),
    templates: count('Templates carrying it'),
    tasks: count('Tasks carrying it'),
    total: count('Every carrier, including articles and files the API does not reach'),
  })
  .describe('Tag'));

const region = lazy(() => z.enum(['US', 'EU']).describe('Where the data is stored'));

/** Workspace and key (2.3, with the erratum of EMULATOR.md: actsAs.id is the member id). */
export const authTest = lazy(() => z
  .strictObject({
    status: z.literal('ok').describe('Always ok'),
    teamId: guidOut('The workspace key'),
    teamName: z.string().describe('Workspace name'),
    region: region(),
    isEnterprise: z.boolean().describe('Whether the workspace is on the top plan tier'),
    apiKey: z
      .strictObject({
        name: z.string().describe('Name given to the key'),
        createdDateTime: timestamp('Creation time'),
        expiresDateTime: timestamp('Expiry (end of that day, UTC); absent for a key that never expires').optional(),
        actsAs: z
          .discriminatedUnion('type', [
            z.strictObject({ type: z.literal('workspace').describe('The key acts as the workspace') }),
            z.strictObject({
              type: z.literal('member').describe('The key acts as a member'),
              id: intIdOut('Member id'),
              email: z.string().optional().describe('Member email'),
              name: z.string().optional().describe('Member full name; absent for a member with no first name'),
              role: z.enum(['Administrator', 'Member']).describe('A key never acts as a Guest'),
            }),
          ])
          .describe('Who the key acts as; a workspace key reports only type'),
      })
      .describe('The key that made the request'),
  })
  .describe('Workspace and key'));

/** GET /v3/workspace: members, groups, tags and templates in one unpaged call (4.5; shape: docs/decisions.md). */
export const workspace = lazy(() => z
  .strictObject({
    key: guidOut('The workspace key'),
    name: z.string().describe('Workspace name'),
    region: region(),
    isEnterprise: z.boolean().describe('Whether the workspace is on the top plan tier'),
    createdDateTime: timestamp('When the workspace was created'),
    members: z.array(member()).describe('Active members, by name'),
    groups: z.array(group()).describe('Groups, by name'),
    tags: z.array(tag()).describe('Tags, by name'),
    templates: z.array(templateRow()).describe('Latest version of every template that is not archived, by name'),
  })
  .describe('Workspace overview'));
