// Response shapes of the checklist routes (spec v3 4.7 "not shown": designed in docs/checklists.md).
import { z } from 'zod';
import { appUrl, count, guidOut, page, timestamp, userRef } from './common';
import { checklistTemplateRef, standaloneSummary } from './tasks';
import { lazy } from '../../lazy';

/** The checklist resource: one shape for list, search, create, get, patch, archive and unarchive. */
export const checklist = lazy(() => z
  .strictObject({
    key: guidOut('Checklist key'),
    name: z.string().describe('Checklist name'),
    url: appUrl('The checklist in the app'),
    status: z.enum(['Scheduled', 'InProgress', 'Complete']).describe('Scheduled, InProgress or Complete'),
    template: checklistTemplateRef(),
    version: z.number().int().describe('The template version the checklist runs'),
    createdBy: userRef().optional().describe('Who started it; absent when unknown'),
    createdDateTime: timestamp('When created'),
    scheduledDateTime: timestamp('When a schedule planned it; absent otherwise').optional(),
    startDateTime: timestamp('When it started').optional(),
    dueDateTime: timestamp("The checklist's own due date; absent when none").optional(),
    completedDateTime: timestamp('When completed; present only while status is Complete').optional(),
    isArchived: z.boolean().describe('Whether archived'),
    isShared: z.boolean().describe('Whether shared by link'),
    shareUrl: appUrl('The share link; present only while shared').optional(),
    tags: z.array(z.string()).describe("The checklist's own tags, in name order (task tags excluded)"),
    taskCounts: z
      .strictObject({
        total: count('Tasks that are not headings'),
        complete: count('Complete tasks'),
        notApplicable: count('Tasks marked not applicable'),
        incomplete: count('Incomplete tasks'),
      })
      .describe("Counts over the checklist's own tasks; headings and attached standalone tasks not counted"),
    attachedTaskCount: count('Standalone tasks attached to it'),
  })
  .describe('Checklist'));

export const checklistPage = lazy(() => page(checklist(), 'checklists'));

/** Share status (EMULATOR.md: PUT needs no body and answers it). */
export const shareStatus = lazy(() => z
  .strictObject({
    isShared: z.boolean().describe('Whether the checklist is shared by link'),
    shareUrl: appUrl('The link; anyone holding it can view the checklist; absent when not shared').optional(),
  })
  .describe('Share status'));

export const attachedTaskList = lazy(() => z.strictObject({ tasks: z.array(standaloneSummary()).describe('Attached standalone tasks, oldest first') }));
