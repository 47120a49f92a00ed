// Schedules (spec v3 1, 2.1, 4.1 rules 6 and 11, 5.4, 5.5, 5.9). The spec names the
// resource and its permissions but shows no route, body or MCP tool; the design is in
// docs/schedules.md. REST only: 4.6 rule 7 gives tool names for the routes of 4.3 and
// 4.4 only.
import { z } from 'zod';
import { CREATE, READ, REMOVE, designed, REPLACE } from './define';
import { defineWith } from './define-with';
import { commaListPattern, cursor, guid, notClearable, intBetween, intId, pageSizeStrict, sortArg, text, trimmedName } from './input-kinds';
import { FREQUENCIES, WEEKDAYS } from '../domain/schedules/recurrence';
import { SCHEDULE_SORTS, createSchedule, deleteSchedule, getSchedule, listSchedules, patchSchedule } from '../domain/schedules/schedules';
import { RUN_STATUSES, listRuns, skipRun, startRunNow } from '../domain/schedules/runs';
import { page } from './shapes/common';
import { run, schedule } from './shapes/schedules';

const scheduleOperation = defineWith({
  tag: 'Schedules',
  noTool: 'The spec names no MCP tool for schedules (4.6 rule 7 lists tools for the routes of 4.3 and 4.4 only); REST only.',
  fidelity: designed('docs/schedules.md', 'the v3 schedule routes, bodies and run states (spec v3 1, 4.1 rule 6 and 5.4-5.5 name schedules; no route is shown)'),
  budget: 'standard',
});

const scheduleId = () => intId().describe('the schedule id (integer, spec v3 2.1)');
const runId = () => intId().describe("the run id (integer, spec v3 2.1), from the schedule's runs list");

const name = trimmedName;
const timeZone = () => text(100, 'must be a time zone name such as Europe/Berlin');
const startDateTime = () => text(64, 'must be an ISO 8601 date-time string');

const recurrence = () =>
  z
    .object(
      {
        frequency: z.enum(FREQUENCIES, { error: `must be one of ${FREQUENCIES.join(', ')}` }).describe(`${FREQUENCIES.join(', ')}`),
        interval: intBetween(1, 1000, 'must be an integer from 1 to 1000')
          .optional()
          .describe('every how many days, weeks, months or years; default 1'),
        daysOfWeek: z
          .array(z.enum(WEEKDAYS, { error: `must be one of ${WEEKDAYS.join(', ')}` }), { error: 'must be an array of day names' })
          .min(1, { error: 'must name at least one day' })
          .max(7, { error: 'must name at most 7 days' })
          .optional()
          .describe("Weekly only: the days it runs on (Monday to Sunday); default the start date's day"),
        endDate: z.string({ error: 'must be a calendar date such as 2026-12-31' }).optional().describe("the last calendar date (in the schedule's zone) a run may fall on; not with count"),
        count: intBetween(1, 1000, 'must be an integer from 1 to 1000')
          .optional()
          .describe('how many runs in all; not with endDate'),
      },
      { error: 'must be an object {frequency, interval?, daysOfWeek?, endDate?, count?}' },
    )
    .strict();

const scheduleRefusals = ['404 SCHEDULE_NOT_FOUND', '403 FORBIDDEN'] as const;

export const scheduleOperations = [
  scheduleOperation({
    id: 'listSchedules',
    method: 'GET',
    path: '/v3/schedules',
    summary: 'List schedules',
    description: 'The schedules of the workspace that start checklists (spec v3 1), paged (4.1 rule 11). Needs Schedule.Viewer or Schedule.Creator (5.4). Send every other argument unchanged with `after`.',
    input: () => ({
      templateKey: guid('a template key (GUID)').optional().describe('only schedules of this template'),
      sort: sortArg([...SCHEDULE_SORTS]).describe(`one of ${SCHEDULE_SORTS.join(', ')}, optionally with :asc or :desc; default createdDateTime:asc`),
      after: cursor(),
      pageSize: pageSizeStrict(),
    }),
    query: ['templateKey', 'sort', 'after', 'pageSize'],
    output: () => page(schedule(), 'Page of schedules'),
    refusals: ['404 TEMPLATE_NOT_FOUND', '403 FORBIDDEN'],
    annotations: READ,
    handler: (ctx, input) => listSchedules(ctx, input),
  }),
  scheduleOperation({
    id: 'createSchedule',
    method: 'POST',
    path: '/v3/schedules',
    summary: 'Create a schedule',
    description:
      "A schedule starts a checklist from a template at each run of its recurrence, at a wall-clock time in the schedule's own IANA time zone (spec v3 4.1 rule 6). Needs Schedule.Creator and run permission on the template (5.5); the workspace key passes (5.9). The next run's checklist exists at once with status Scheduled.",
    input: () => ({
      name: name().describe("the schedule's name, given to each checklist it starts"),
      templateKey: guid('a template key (GUID)').describe('the template its checklists start from (its latest version)'),
      timeZone: timeZone().describe('IANA time zone (Windows names accepted), e.g. Europe/Berlin'),
      startDateTime: startDateTime().describe('the first run: wall clock in timeZone without offset, e.g. 2026-03-29T09:00:00 (an offset or Z names an instant, converted); not in the past'),
      recurrence: recurrence().optional().describe('absent: one run only'),
    }),
    output: schedule,
    refusals: ['404 TEMPLATE_NOT_FOUND', '403 FORBIDDEN', '409 CONFLICT'],
    annotations: CREATE,
    status: 201,
    handler: (ctx, input) => createSchedule(ctx, input),
  }),
  scheduleOperation({
    id: 'getSchedule',
    method: 'GET',
    path: '/v3/schedules/:scheduleId',
    summary: 'Get a schedule',
    description: 'One schedule with its next run. Needs Schedule.Viewer or Schedule.Creator (5.4).',
    input: () => ({ scheduleId: scheduleId() }),
    output: schedule,
    refusals: [...scheduleRefusals],
    annotations: READ,
    handler: (ctx, input) => getSchedule(ctx, input.scheduleId),
  }),
  scheduleOperation({
    id: 'patchSchedule',
    method: 'PATCH',
    path: '/v3/schedules/:scheduleId',
    summary: 'Change a schedule',
    description:
      'PATCH (4.1 rule 8): only what is sent changes; `recurrence: null` makes it a single run. A change of template, zone, start or recurrence re-plans the runs still to come (their ids change; runs that happened stay). Needs Schedule.Creator (5.5), and run permission on a new template.',
    input: () => ({
      scheduleId: scheduleId(),
      name: notClearable(name()).optional().describe('a new name (also of the Scheduled checklist of the next run)'),
      templateKey: notClearable(guid('a template key (GUID)')).optional().describe('a new template'),
      timeZone: notClearable(timeZone()).optional().describe('a new IANA time zone; the start keeps its wall clock'),
      startDateTime: notClearable(startDateTime()).optional().describe('a new start, wall clock in the zone; not in the past'),
      recurrence: recurrence().nullable().optional().describe('a new recurrence, replacing the whole of the old one; null: one run only'),
    }),
    output: schedule,
    refusals: ['404 SCHEDULE_NOT_FOUND', '404 TEMPLATE_NOT_FOUND', '403 FORBIDDEN', '409 CONFLICT'],
    annotations: REPLACE,
    handler: (ctx, input) => patchSchedule(ctx, input),
  }),
  scheduleOperation({
    id: 'deleteSchedule',
    method: 'DELETE',
    path: '/v3/schedules/:scheduleId',
    summary: 'Delete a schedule',
    description: 'The schedule and its runs go, and the Scheduled checklist of its next run; checklists it already started stay. Needs Schedule.Creator (5.5).',
    input: () => ({ scheduleId: scheduleId() }),
    refusals: [...scheduleRefusals],
    annotations: REMOVE,
    status: 204,
    handler: (ctx, input) => deleteSchedule(ctx, input.scheduleId),
  }),
  scheduleOperation({
    id: 'listScheduleRuns',
    method: 'GET',
    path: '/v3/schedules/:scheduleId/runs',
    summary: "List a schedule's runs",
    description:
      "Runs that happened (Started, Skipped, Failed) and the next ones to come (Upcoming, up to 10 ahead), each with `scheduledDateTime` as wall clock in the schedule's zone beside `scheduledDateTimeUtc` (4.1 rule 6). Paged (4.1 rule 11). Needs Schedule.Viewer or Schedule.Creator (5.4).",
    input: () => ({
      scheduleId: scheduleId(),
      status: z.string({ error: `must be a comma-separated list of ${RUN_STATUSES.join(', ')}` }).meta({ pattern: commaListPattern(RUN_STATUSES) }).optional().describe(`comma-separated ${RUN_STATUSES.join(', ')}`),
      sort: sortArg(['scheduledDateTime']).describe('scheduledDateTime, optionally with :asc or :desc; default ascending'),
      after: cursor(),
      pageSize: pageSizeStrict(),
    }),
    query: ['status', 'sort', 'after', 'pageSize'],
    output: () => page(run(), 'Page of runs'),
    refusals: [...scheduleRefusals],
    annotations: READ,
    handler: (ctx, input) => listRuns(ctx, input),
  }),
  scheduleOperation({
    id: 'skipScheduleRun',
    method: 'POST',
    path: '/v3/schedules/:scheduleId/runs/:runId/skip',
    summary: 'Skip a run',
    description:
      'The upcoming run will not start a checklist; its Scheduled checklist, if it has one, is removed. Skipping a skipped run changes nothing. Needs Schedule.Creator and run permission on the template (5.5).',
    input: () => ({ scheduleId: scheduleId(), runId: runId() }),
    output: run,
    refusals: ['404 SCHEDULE_NOT_FOUND', '404 SCHEDULE_RUN_NOT_FOUND', '403 FORBIDDEN', '409 CONFLICT'],
    annotations: REMOVE,
    handler: (ctx, input) => skipRun(ctx, input),
  }),
  scheduleOperation({
    id: 'startScheduleRun',
    method: 'POST',
    path: '/v3/schedules/:scheduleId/runs/:runId/start',
    summary: "Create a run's checklist now",
    description:
      "Starts the upcoming run's checklist now instead of at its time (its Scheduled checklist when it has one, due dates moved with the start); the run counts as started and new_checklist fires. Needs Schedule.Creator and run permission on the template (5.5).",
    input: () => ({ scheduleId: scheduleId(), runId: runId() }),
    output: run,
    refusals: ['404 SCHEDULE_NOT_FOUND', '404 SCHEDULE_RUN_NOT_FOUND', '403 FORBIDDEN', '409 CONFLICT'],
    annotations: CREATE,
    handler: (ctx, input) => startRunNow(ctx, input),
  }),
];
