const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[zZ]|([+-])(\d{2}):(\d{2}))$/;
const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

const isLeapYear = (year: number) => year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);

/** RFC 3339 `full-date`: `2024-02-29`, with the days each month really has. */
export function isDate(value: string): boolean {
  const match = DATE.exec(value);
  if (match === null) return false;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  if (month < 1 || month > 12 || day < 1) return false;
  return day <= (month === 2 && !isLeapYear(year) ? 28 : DAYS_IN_MONTH[month - 1]);
}

/**
 * RFC 3339 `full-time`: `23:20:50.52Z`, `08:30:06-08:00`; an offset is required, and a
 * leap second (`:60`) only at 23:59 UTC.
 */
export function isTime(value: string): boolean {
  const match = TIME.exec(value);
  if (match === null) return false;
  const hour = Number(match[1]);
  const minute = Number(match[2]);
  const second = Number(match[3]);
  const offsetHour = match[5] === undefined ? 0 : Number(match[5]);
  const offsetMinute = match[6] === undefined ? 0 : Number(match[6]);
  if (hour > 23 || minute > 59 || second > 60 || offsetHour > 23 || offsetMinute > 59) return false;
  if (second < 60) return true;
  const sign = match[4] === '-' ? -1 : 1;
  const utcMinutes =
    (((hour * 60 + minute - sign * (offsetHour * 60 + offsetMinute)) % 1440) + 1440) % 1440;
  return utcMinutes === 23 * 60 + 59;
}

/** RFC 3339 `date-time`: a full date, `T` (or `t`), a full time. */
export function isDateTime(value: string): boolean {
  const separator = value.indexOf('T') >= 0 ? value.indexOf('T') : value.indexOf('t');
  return separator === 10 && isDate(value.slice(0, 10)) && isTime(value.slice(11));
}

const DURATION =
  /^P(?:\d+W|(?=\d|T\d)(?:\d+Y(?:\d+M(?:\d+D)?)?|\d+M(?:\d+D)?|\d+D)?(?:T(?:\d+H(?:\d+M(?:\d+S)?)?|\d+M(?:\d+S)?|\d+S))?)$/;

/** RFC 3339 appendix A `duration`: `P4DT12H30M5S`, `PT36H`, `P2W` (weeks alone). */
export function isDuration(value: string): boolean {
  return value.length > 1 && DURATION.test(value);
}
