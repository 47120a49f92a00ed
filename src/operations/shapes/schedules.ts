// Schedule and run resources (spec v3 "not shown"; designed in docs/schedules.md).
// Wall-clock times in the schedule's zone sit beside their UTC instants (4.1 rule 6).
import { z } from 'zod';
import { appUrl, guidOut, intIdOut, timestamp, userRef } from './common';
import { FREQUENCIES, WEEKDAYS } from '../../domain/schedules/recurrence';
import { lazy } from '../../lazy';

const wallClock = (description: string) =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/)
    .describe(`${description}: wall clock in the schedule's time zone, YYYY-MM-DDTHH:mm:ss, no offset (spec v3 4.1 rule 6)`);

export const recurrence = lazy(() => z
  .strictObject({
    frequency: z.enum(FREQUENCIES).describe(FREQUENCIES.join(', ')),
    interval: z.number().int().min(1).describe('Every how many days, weeks, months or years'),
    daysOfWeek: z.array(z.enum(WEEKDAYS)).optional().describe('Weekly: the days it runs on, Monday first'),
    endDate: z.string().optional().describe("The last calendar date (in the schedule's zone) a run may fall on"),
    count: z.number().int().min(1).optional().describe('How many runs the series has in all'),
  })
  .describe('How the schedule repeats; absent for a single run'));

export const schedule = lazy(() => z
  .strictObject({
    id: intIdOut('Schedule id (spec v3 2.1)'),
    name: z.string().describe('The name; each checklist the schedule starts is given it'),
    status: z.enum(['Active', 'Ended']).describe('Active while a run is still to come'),
    template: z
      .strictObject({
        key: guidOut('Template key'),
        name: z.string().describe("Name of the template's latest version"),
        url: appUrl(),
        isArchived: z.boolean().describe('Whether the template is archived (its runs then fail)'),
      })
      .describe('The template its checklists start from'),
    timeZone: z.string().describe('IANA time zone of the schedule'),
    startDateTime: wallClock('The start'),
    startDateTimeUtc: timestamp('The start as a UTC instant'),
    recurrence: recurrence().optional(),
    nextRun: z
      .strictObject({
        id: intIdOut('Run id'),
        scheduledDateTime: wallClock('When it runs'),
        scheduledDateTimeUtc: timestamp('When it runs, as a UTC instant'),
      })
      .optional()
      .describe('The next run; absent when the schedule has ended'),
    createdBy: userRef().optional(),
    createdDateTime: timestamp('When the schedule was made'),
    updatedDateTime: timestamp('When it was last changed; absent until then').optional(),
  })
  .describe('Schedule'));

export const run = lazy(() => z
  .strictObject({
    id: intIdOut('Run id (spec v3 2.1)'),
    scheduleId: intIdOut('Its schedule'),
    status: z.enum(['Upcoming', 'Started', 'Skipped', 'Failed']).describe('Upcoming, Started, Skipped or Failed'),
    scheduledDateTime: wallClock('When it runs or ran'),
    scheduledDateTimeUtc: timestamp('The same moment as a UTC instant'),
    startedDateTime: timestamp('When its checklist started').optional(),
    skippedDateTime: timestamp('When it was skipped').optional(),
    skippedBy: userRef().optional(),
    reason: z.string().optional().describe('Why it failed'),
    checklist: z
      .strictObject({
        key: guidOut('Checklist key'),
        name: z.string().describe('Checklist name'),
        url: appUrl(),
        status: z.enum(['Scheduled', 'InProgress', 'Complete']).describe('Scheduled until the run starts it'),
      })
      .optional()
      .describe("The run's checklist: the next run's Scheduled one, or the one it started"),
  })
  .describe('Run of a schedule'));
