// A schedule's series of runs (docs/schedules.md "Recurrence"): calendar and zone
// arithmetic is luxon's (IANA zones through Intl, month and year steps that clamp to
// the month's last day, wall-clock times that do not exist or exist twice on a
// daylight-saving change resolved the library's way). Nothing here adds milliseconds
// to dates by hand: a run is "this calendar date at the start's wall-clock time in
// the zone", and luxon turns that into the instant.
import { DateTime } from 'luxon';
import { validationError } from '../../errors';
import { resolveZone } from '../timezone';

export const FREQUENCIES = ['Daily', 'Weekly', 'Monthly', 'Yearly'] as const;
export type Frequency = (typeof FREQUENCIES)[number];
export const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** The recurrence as stored (schedules.data) and answered; absent: one run only. */
export interface Recurrence {
  frequency: Frequency;
  interval: number;
  /** Weekly only: the days it runs on, Monday first. */
  daysOfWeek?: Weekday[];
  /** Last calendar date (in the schedule's zone) a run may fall on. */
  endDate?: string;
  /** How many runs the series has in all. */
  count?: number;
}

/** Where a series starts: wall clock in a zone. */
export interface Series {
  timeZone: string;
  /** YYYY-MM-DDTHH:mm:ss */
  startLocal: string;
  recurrence?: Recurrence;
}

export interface Occurrence {
  seq: number;
  /** The instant, UTC ms. */
  at: number;
  /** The instant as wall clock in the zone, YYYY-MM-DDTHH:mm:ss. */
  local: string;
}

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?$/;
const WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})$/i;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** Runs further ahead than this are refused: nothing an integrator tests needs them. */
const MAX_YEARS_AHEAD = 100;

const fmt = (d: DateTime) => d.toFormat("yyyy-MM-dd'T'HH:mm:ss");

/** An IANA (or Windows) zone name as its IANA name; 400 with `field` otherwise. */
export function parseZone(name: string, field: string): string {
  const trimmed = name.trim();
  const zone = trimmed === '' ? null : resolveZone(trimmed);
  if (!zone || !DateTime.now().setZone(zone).isValid) {
    throw validationError(`${field} '${name.slice(0, 100)}' is not a time zone: send an IANA name such as Europe/Berlin (Windows names such as W. Europe Standard Time are accepted too).`, field);
  }
  return zone;
}

/**
 * A start as wall clock in `zone` (spec v3 4.1 rule 6 exception). A date-time without
 * offset is read as wall clock in the zone; one with `Z` or an offset names an instant,
 * which is honoured and turned into the zone's wall clock.
 */
export function parseStart(value: string, zone: string, field: string): string {
  const v = value.trim();
  if (WITH_OFFSET.test(v)) {
    const d = DateTime.fromISO(v, { setZone: true });
    if (!d.isValid) throw validationError(`${field} is not a real date-time.`, field);
    return fmt(d.setZone(zone));
  }
  const m = LOCAL.exec(v);
  if (!m) throw validationError(`${field} must be an ISO 8601 date-time such as 2026-03-29T09:00:00 (wall clock in the schedule's time zone).`, field);
  const [, y, mo, d, h, mi, s] = m.map(Number);
  const dt = DateTime.fromObject({ year: y, month: mo, day: d, hour: h, minute: mi, second: s || 0 }, { zone: 'UTC' });
  if (!dt.isValid || dt.year !== y || dt.month !== mo || dt.day !== d || h > 23 || mi > 59) throw validationError(`${field} is not a real date-time.`, field);
  return fmt(dt);
}

/** A calendar date YYYY-MM-DD; 400 with `field` otherwise. */
export function parseDate(value: string, field: string): string {
  const m = DATE.exec(value.trim());
  const d = m ? DateTime.fromObject({ year: +m[1], month: +m[2], day: +m[3] }, { zone: 'UTC' }) : null;
  if (!m || !d || !d.isValid || d.day !== +m[3] || d.month !== +m[2]) throw validationError(`${field} must be a calendar date such as 2026-12-31.`, field);
  return d.toISODate()!;
}

/** The instant of a wall-clock time in a zone (a time skipped by a change forward moves forward, as luxon resolves it). */
export function instantOf(local: string, zone: string): DateTime {
  const [date, time] = local.split('T');
  const [y, mo, d] = date.split('-').map(Number);
  const [h, mi, s] = time.split(':').map(Number);
  return DateTime.fromObject({ year: y, month: mo, day: d, hour: h, minute: mi, second: s }, { zone });
}

/** The calendar date of occurrence `g` of the underlying rule, before count and end are applied. */
function nthDate(start: DateTime, r: Recurrence | undefined, g: number, weekly: { days: number[]; skipped: number } | undefined): DateTime {
  if (!r) return start;
  switch (r.frequency) {
    case 'Daily':
      return start.plus({ days: g * r.interval });
    case 'Weekly': {
      const { days, skipped } = weekly!;
      const i = g + skipped;
      const week = Math.floor(i / days.length);
      return start.startOf('week').plus({ weeks: week * r.interval, days: days[i % days.length] - 1 });
    }
    case 'Monthly':
      return start.plus({ months: g * r.interval });
    case 'Yearly':
      return start.plus({ years: g * r.interval });
  }
}

/** The weekday numbers (1 = Monday) of a weekly rule and how many of them fall before the start in its first week. */
function weeklyPlan(start: DateTime, r: Recurrence | undefined) {
  if (r?.frequency !== 'Weekly') return undefined;
  const names = r.daysOfWeek?.length ? r.daysOfWeek : [WEEKDAYS[start.weekday - 1]];
  const days = [...new Set(names.map((n) => WEEKDAYS.indexOf(n) + 1))].sort((a, b) => a - b);
  return { days, skipped: days.filter((d) => d < start.weekday).length };
}

/**
 * Occurrences of the series from `fromSeq` on, at most `limit` of them, stopping at the
 * series' end (count or end date). The calendar runs on a zone-free date (UTC calendar)
 * so that a daylight-saving change cannot move a date; the wall clock is then placed in
 * the zone.
 */
export function occurrences(series: Series, fromSeq: number, limit: number): Occurrence[] {
  const startLocal = instantOf(series.startLocal, 'UTC'); // calendar only
  const r = series.recurrence;
  const weekly = weeklyPlan(startLocal, r);
  const out: Occurrence[] = [];
  const last = r ? (r.count !== undefined ? r.count - 1 : Infinity) : 0;
  const horizon = startLocal.plus({ years: MAX_YEARS_AHEAD });
  const time = series.startLocal.split('T')[1];
  for (let g = fromSeq; g <= last && out.length < limit; g++) {
    const date = nthDate(startLocal, r, g, weekly);
    if (date > horizon) break;
    if (r?.endDate !== undefined && date.toISODate()! > r.endDate) break;
    const at = instantOf(`${date.toISODate()}T${time}`, series.timeZone);
    out.push({ seq: g, at: at.toMillis(), local: fmt(at) });
  }
  return out;
}

/** The first occurrence number whose instant is after `after` (for re-planning a changed series). */
export function firstSeqAfter(series: Series, after: number): number | undefined {
  // Jump in pages: a daily series a century long is 36,525 occurrences.
  for (let from = 0; ; from += 500) {
    const page = occurrences(series, from, 500);
    const hit = page.find((o) => o.at > after);
    if (hit) return hit.seq;
    if (page.length < 500) return undefined;
  }
}

/** The instant and wall clock of a series' start. */
export function startOf(series: Series): { at: number; local: string } {
  const at = instantOf(series.startLocal, series.timeZone);
  return { at: at.toMillis(), local: fmt(at) };
}

/** Wall clock of an instant in a zone. */
export const localOf = (ms: number, zone: string): string => fmt(DateTime.fromMillis(ms, { zone }));
