// Naming an assignee in a request (spec v3 2.4 "Naming an assignee", 4.6 rule 6).
import { z } from 'zod';
import { intId, text } from '../input-kinds';

/** Spec v3 2.4: each entry is `{type, id}` (type required with id) or `{name}`; the resolver (domain/people) holds to it. */
export const NAMING_RULE = { anyOf: [{ required: ['type', 'id'] }, { required: ['name'] }], dependentRequired: { id: ['type'] } };

export const namingEntry = () =>
  z.object(
    {
      // Declared as spelt; the server ignores letter case (spec v3 2.4).
      type: z.string({ error: 'must be TeamMember or Group' }).meta({ enum: ['TeamMember', 'Group'] }).optional().describe('TeamMember or Group (case-insensitive); required with id'),
      id: intId().optional().describe('Member id or group id'),
      name: text(500).meta({ pattern: '\\S' }).optional().describe("A member's full name or email, or a group's name (case-insensitive); ignored when id is given"),
    },
    { error: 'must be {type, id} or {name}' },
  ).meta(NAMING_RULE);

export const namingList = (what: string) =>
  z.array(namingEntry(), { error: `must be an array of {type, id} or {name} (${what})` }).max(100, { error: 'must name at most 100 people or groups' });
