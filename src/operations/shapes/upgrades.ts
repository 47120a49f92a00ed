// Response shapes of the upgrade area (spec v3 2.5 upgrade candidate, upgrade result), the
// checklist links route and the checklist activity feed (docs/upgrades.md).
import { z } from 'zod';
import { appUrl, count, guidOut, page, timestamp, userRef } from './common';
import { lazy } from '../../lazy';

const version = (description: string) => z.number().int().min(1).describe(description);

export const upgradeCandidate = lazy(() => z
  .strictObject({
    key: guidOut('Checklist key'),
    name: z.string().describe('Checklist name'),
    url: appUrl(),
    status: z.enum(['Scheduled', 'InProgress', 'Complete']).describe('Checklist status'),
    startDateTime: timestamp('When the checklist started; absent without start date').optional(),
    version: version('The version the checklist runs now'),
    targetVersion: version('The version it would be upgraded to'),
  })
  .describe('Upgrade candidate: a running checklist not on the target version'));

export const upgradeCandidatePage = lazy(() => page(upgradeCandidate(), 'Page of upgrade candidates; total counts all candidates'));

export const upgradeResult = lazy(() => z
  .strictObject({
    templateKey: guidOut('Template key'),
    templateName: z.string().describe('Name of the target version'),
    version: version('Target version'),
    queued: count('Checklists queued for the worker'),
    checklistKeys: z.array(guidOut('Checklist key')).describe('Keys of the queued checklists'),
    skipped: z
      .array(z.strictObject({ checklistKey: guidOut('Checklist key'), reason: z.string().describe('Why: archived, or `already on version N`') }))
      .describe('Checklists not queued and why; always empty when `all` was true'),
  })
  .describe('Upgrade result'));

const checklistReference = lazy(() => z
  .strictObject({
    key: guidOut('Checklist key'),
    name: z.string().describe('Checklist name'),
    url: appUrl(),
    template: z
      .strictObject({
        key: guidOut('Template key'),
        name: z.string().describe('Template name, as of the version the checklist runs'),
        url: appUrl(),
        version: version('The version the checklist runs'),
        description: z.string().optional().describe('Absent when none'),
        createdDateTime: timestamp('When that version was published').optional(),
      })
      .describe('The template and version the checklist runs'),
  })
  .describe('Checklist reference'));

const link = lazy(() => z.strictObject({
  checklist: checklistReference(),
  taskKey: guidOut('Task holding the Linked Checklist field'),
  fieldKey: guidOut('The Linked Checklist field'),
}));

export const checklistLinks = lazy(() => z
  .strictObject({
    checklistKey: guidOut('The checklist asked about'),
    linkedFrom: z.array(link()).describe('Checklists whose Linked Checklist field holds this checklist (its parent)'),
    linkedTo: z.array(link()).describe("Checklists this checklist's Linked Checklist fields hold (its children)"),
  })
  .describe('Linked Checklist links, both sides'));

export const checklistActivityPage = lazy(() => page(
  z
    .strictObject({
      id: z.number().int().describe('Entry id'),
      action: z.string().describe('Stable machine name, e.g. checklist.upgraded'),
      text: z.string().describe('What happened, in words'),
      taskKey: guidOut('The task the entry is about; absent for the checklist itself').optional(),
      createdDateTime: timestamp('When it happened'),
      createdBy: userRef().optional().describe('Who did it (for an upgrade: the publisher of the target version)'),
      details: z.record(z.string(), z.unknown()).optional().describe('Details, by action'),
    })
    .describe('Activity entry'),
  'Page of activity entries, newest first',
));
