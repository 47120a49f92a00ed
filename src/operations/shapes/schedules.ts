// Response shapes of the schedule routes (docs/schedules.md): the contract the
// self-check holds every answer to.
import { z } from 'zod';
import { FREQUENCIES, WEEKDAYS } from '../../domain/schedules/recurrence';

const wallClock = () => z.string().describe("wall clock in the schedule's time zone, YYYY-MM-DDTHH:mm:ss (spec v3 4.1 rule 6)");
const instant = () => z.string().describe('the same moment as a UTC instant ending Z');
const user = () => z.strictObject({ name: z.string(), email: z.string().optional() });

export const recurrenceShape = z.strictObject({
  frequency: z.enum(FREQUENCIES),
  interval: z.number().int(),
  daysOfWeek: z.array(z.enum(WEEKDAYS)).optional(),
  endDate: z.string().optional(),
  count: z.number().int().optional(),
});

export const scheduleShape = z.strictObject({
  id: z.number().int(),
  name: z.string(),
  status: z.enum(['Active', 'Ended']),
  template: z.strictObject({ key: z.string(), name: z.string(), url: z.string(), isArchived: z.boolean() }),
  timeZone: z.string(),
  startDateTime: wallClock(),
  startDateTimeUtc: instant(),
  recurrence: recurrenceShape.optional(),
  nextRun: z.strictObject({ id: z.number().int(), scheduledDateTime: wallClock(), scheduledDateTimeUtc: instant() }).optional(),
  createdBy: user().optional(),
  createdDateTime: z.string(),
  updatedDateTime: z.string().optional(),
});

export const runShape = z.strictObject({
  id: z.number().int(),
  scheduleId: z.number().int(),
  status: z.enum(['Upcoming', 'Started', 'Skipped', 'Failed']),
  scheduledDateTime: wallClock(),
  scheduledDateTimeUtc: instant(),
  startedDateTime: z.string().optional(),
  skippedDateTime: z.string().optional(),
  skippedBy: user().optional(),
  reason: z.string().optional(),
  checklist: z.strictObject({ key: z.string(), name: z.string(), url: z.string(), status: z.enum(['Scheduled', 'InProgress', 'Complete']) }).optional(),
});

export const pageOf = <T extends z.ZodType>(item: T) =>
  z.strictObject({ items: z.array(item), nextCursor: z.string().optional(), hasMore: z.boolean(), total: z.number().int() });
