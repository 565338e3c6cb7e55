const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[zZ]|([+-])(\d{2}):(\d{2}))$/;
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[zZ]|([+-])(\d{2}):(\d{2}))$/;
const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

const isLeapYear = (year: number) => year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);

/** Do year, month and day (regex groups from `at`) name a real day? */
function isRealDay(match: RegExpExecArray, at: number): boolean {
  const year = Number(match[at]);
  const month = Number(match[at + 1]);
  const day = Number(match[at + 2]);
  if (month < 1 || month > 12 || day < 1) return false;
  return day <= (month === 2 && !isLeapYear(year) ? 28 : DAYS_IN_MONTH[month - 1]);
}

/**
 * Are hour, minute, second and offset (regex groups from `at`) a real time? A leap second
 * (`:60`) only at 23:59 UTC, after applying the offset.
 */
function isRealTime(match: RegExpExecArray, at: number): boolean {
  const hour = Number(match[at]);
  const minute = Number(match[at + 1]);
  const second = Number(match[at + 2]);
  const offsetHour = match[at + 4] === undefined ? 0 : Number(match[at + 4]);
  const offsetMinute = match[at + 5] === undefined ? 0 : Number(match[at + 5]);
  if (hour > 23 || minute > 59 || second > 60 || offsetHour > 23 || offsetMinute > 59) return false;
  if (second < 60) return true;
  const sign = match[at + 3] === '-' ? -1 : 1;
  const utcMinutes =
    (((hour * 60 + minute - sign * (offsetHour * 60 + offsetMinute)) % 1440) + 1440) % 1440;
  return utcMinutes === 23 * 60 + 59;
}

/** RFC 3339 `full-date`: `2024-02-29`, with the days each month really has. */
export function isDate(value: string): boolean {
  const match = DATE.exec(value);
  return match !== null && isRealDay(match, 1);
}

/** RFC 3339 `full-time`: `23:20:50.52Z`, `08:30:06-08:00`; an offset is required. */
export function isTime(value: string): boolean {
  const match = TIME.exec(value);
  return match !== null && isRealTime(match, 1);
}

/** RFC 3339 `date-time`: a full date, `T` (or `t`), a full time. */
export function isDateTime(value: string): boolean {
  const match = DATE_TIME.exec(value);
  return match !== null && isRealDay(match, 1) && isRealTime(match, 4);
}

const DURATION =
  /^P(?:\d+W|(?=\d|T\d)(?:\d+Y(?:\d+M(?:\d+D)?)?|\d+M(?:\d+D)?|\d+D)?(?:T(?:\d+H(?:\d+M(?:\d+S)?)?|\d+M(?:\d+S)?|\d+S))?)$/;

/** RFC 3339 appendix A `duration`: `P4DT12H30M5S`, `PT36H`, `P2W` (weeks alone). */
export function isDuration(value: string): boolean {
  return value.length > 1 && DURATION.test(value);
}
