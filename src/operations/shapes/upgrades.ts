// Response shapes of the upgrade area (spec v3 2.5 upgrade candidate, upgrade result) and
// of the checklist links route (docs/upgrades.md "Linked checklists").
import { z } from 'zod';

const timestamp = () => z.string().describe('ISO 8601 UTC instant ending in Z');

export const upgradeCandidateShape = z
  .strictObject({
    key: z.string().describe('Checklist key'),
    name: z.string().describe('Checklist name'),
    url: z.string().describe('Link in the app'),
    status: z.enum(['Scheduled', 'InProgress', 'Complete']).describe('Checklist status'),
    startDateTime: timestamp().optional().describe('Absent without start date'),
    version: z.number().int().describe('The version the checklist runs now'),
    targetVersion: z.number().int().describe('The version it would be upgraded to'),
  })
  .describe('Upgrade candidate: a running checklist not on the target version');

export const upgradeCandidatePage = z.strictObject({
  items: z.array(upgradeCandidateShape),
  nextCursor: z.string().optional(),
  hasMore: z.boolean(),
  total: z.number().int().describe('Count of all candidates'),
});

export const upgradeResultShape = z
  .strictObject({
    templateKey: z.string(),
    templateName: z.string().describe('Name of the target version'),
    version: z.number().int().describe('Target version'),
    queued: z.number().int().describe('Checklists queued for the worker'),
    checklistKeys: z.array(z.string()).describe('Keys of the queued checklists'),
    skipped: z
      .array(z.strictObject({ checklistKey: z.string(), reason: z.string() }))
      .describe('Checklists not queued and why; always empty when `all` was true'),
  })
  .describe('Upgrade result');

const templateRef = z.strictObject({
  key: z.string(),
  name: z.string(),
  url: z.string(),
  version: z.number().int(),
  description: z.string().optional(),
  createdDateTime: timestamp().optional(),
});

const linkShape = z.strictObject({
  checklist: z.strictObject({ key: z.string(), name: z.string(), url: z.string(), template: templateRef }).describe('Checklist reference'),
  taskKey: z.string().describe('Task holding the Linked Checklist field'),
  fieldKey: z.string().describe('The Linked Checklist field'),
});

export const checklistLinksShape = z.strictObject({
  checklistKey: z.string(),
  linkedFrom: z.array(linkShape).describe('Checklists whose Linked Checklist field holds this checklist (the parent)'),
  linkedTo: z.array(linkShape).describe("Checklists this checklist's Linked Checklist fields hold (its children)"),
});

export const checklistActivityPage = z.strictObject({
  items: z.array(
    z.strictObject({
      id: z.number().int(),
      action: z.string().describe('Stable machine name, e.g. checklist.upgraded'),
      text: z.string().describe('What happened, in words'),
      taskKey: z.string().optional().describe('The task the entry is about; absent for the checklist itself'),
      createdDateTime: timestamp(),
      createdBy: z.strictObject({ name: z.string(), email: z.string().optional() }).optional(),
      details: z.record(z.string(), z.unknown()).optional(),
    }),
  ),
  nextCursor: z.string().optional(),
  hasMore: z.boolean(),
  total: z.number().int(),
});
