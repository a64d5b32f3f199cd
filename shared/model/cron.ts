// Five-field cron schedules in UTC (plus @yearly … @hourly), read as Karpenter reads a disruption budget's
// schedule: the CRD's pattern, then robfig/cron's ParseStandard on "TZ=UTC <schedule>". Pure: callers pass the instant.

export interface CronSchedule {
  readonly minutes: ReadonlySet<number>;
  readonly hours: ReadonlySet<number>;
  readonly daysOfMonth: ReadonlySet<number>;
  readonly months: ReadonlySet<number>;
  readonly daysOfWeek: ReadonlySet<number>;
  /** robfig's star bit: the field holds `*` or `?` with step 1, so cron's day OR rule does not apply. */
  readonly domStar: boolean;
  readonly dowStar: boolean;
}

export class CronError extends Error {
  override name = 'CronError';
}

/** Longest schedule read (docs/input-bounds.md); checked before anything else. */
export const MAX_CRON_LENGTH = 256;
const MACROS: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};
const MONTH_NAMES = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DAY_NAMES = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
// RE2's \s (the API server evaluates the CRD pattern with Go's regexp)
const RE2_SPACE = new Set([' ', '\t', '\n', '\f', '\r']);

/**
 * The CRD pattern `^(@(annually|yearly|monthly|weekly|daily|midnight|hourly))|((.+)\s(.+)\s(.+)\s(.+)\s(.+))$`
 * evaluated in linear time (the pattern itself backtracks polynomially in JavaScript). The second branch is
 * anchored at the end only: some suffix is five non-empty parts without newlines, split by single whitespace.
 */
export function matchesCrdSchedulePattern(text: string): boolean {
  if (/^@(annually|yearly|monthly|weekly|daily|midnight|hourly)/.test(text)) return true;
  // inPart[k]: inside part k with at least one character; afterSep[k]: the separator before part k was just read
  let inPart = [false, false, false, false, false, false];
  let afterSep = [false, false, false, false, false, false];
  for (const c of text) {
    const newline = c === '\n';
    const space = RE2_SPACE.has(c);
    const nextPart = [false, false, false, false, false, false];
    const nextSep = [false, false, false, false, false, false];
    for (let k = 1; k <= 5; k++) {
      // part 1 may begin anywhere (the branch is not anchored at the start); `.` takes anything but a newline
      if (!newline && (k === 1 || afterSep[k] || inPart[k])) nextPart[k] = true;
      if (space && inPart[k] && k < 5) nextSep[k + 1] = true;
    }
    inPart = nextPart;
    afterSep = nextSep;
  }
  return inPart[5] === true;
}

/** strconv.Atoi as robfig/cron calls it: an optional sign, decimal digits; negative values are refused. */
function parseInt10(text: string, part: string): number {
  if (!/^[+-]?\d{1,18}$/.test(text)) throw new CronError(`failed to parse int from "${text}" in "${part}"`);
  const n = Number(text);
  if (n < 0) throw new CronError(`negative number (${n}) not allowed: "${part}"`);
  return n;
}

function parseValue(
  text: string,
  names: readonly string[] | undefined,
  offset: number,
  part: string,
): number {
  const named = names?.indexOf(text.toLowerCase()) ?? -1;
  return named >= 0 ? named + offset : parseInt10(text, part);
}

interface Bounds {
  readonly min: number;
  readonly max: number;
  readonly names?: readonly string[];
  readonly nameOffset?: number;
}

/** robfig/cron getRange: `*`, `?`, `a`, `a-b`, each with an optional `/step` (`a/step` means `a-max/step`). */
function parseRange(part: string, b: Bounds, into: Set<number>): boolean {
  const slash = part.split('/');
  if (slash.length > 2) throw new CronError(`too many slashes: "${part}"`);
  const dash = (slash[0] as string).split('-');
  let lo: number;
  let hi: number;
  let star = false;
  if (dash[0] === '*' || dash[0] === '?') {
    [lo, hi, star] = [b.min, b.max, true];
  } else {
    if (dash.length > 2) throw new CronError(`too many hyphens: "${part}"`);
    lo = parseValue(dash[0] as string, b.names, b.nameOffset ?? 0, part);
    hi = dash.length === 2 ? parseValue(dash[1] as string, b.names, b.nameOffset ?? 0, part) : lo;
  }
  let step = 1;
  if (slash.length === 2) {
    step = parseInt10(slash[1] as string, part);
    if (dash.length === 1) hi = b.max;
    if (step > 1) star = false;
  }
  if (lo < b.min) throw new CronError(`beginning of range (${lo}) below minimum (${b.min}): "${part}"`);
  if (hi > b.max) throw new CronError(`end of range (${hi}) above maximum (${b.max}): "${part}"`);
  if (lo > hi) throw new CronError(`beginning of range (${lo}) beyond end of range (${hi}): "${part}"`);
  if (step === 0) throw new CronError(`step of range should be a positive number: "${part}"`);
  for (let v = lo; v <= hi; v += step) into.add(v);
  return star;
}

function parseField(field: string, b: Bounds): { values: Set<number>; star: boolean } {
  const values = new Set<number>();
  let star = false;
  // strings.FieldsFunc on ',': empty items are skipped
  for (const part of field.split(',')) if (part !== '' && parseRange(part, b, values)) star = true;
  return { values, star };
}

/** Parses a schedule as Karpenter does; throws CronError naming what robfig/cron or the CRD would refuse. */
export function parseCron(text: string): CronSchedule {
  if (text.length > MAX_CRON_LENGTH) throw new CronError(`longer than ${MAX_CRON_LENGTH} characters`);
  if (!matchesCrdSchedulePattern(text))
    throw new CronError(
      'must be five fields (minute hour day-of-month month day-of-week) or @yearly … @hourly',
    );
  const spec = text.trim();
  const expr = spec.startsWith('@') ? (Object.hasOwn(MACROS, spec) ? MACROS[spec] : undefined) : spec;
  if (expr === undefined) throw new CronError(`unrecognized descriptor "${spec}"`);
  const fields = expr.split(/\s+/);
  if (fields.length !== 5) throw new CronError(`expected exactly 5 fields, found ${fields.length}`);
  const [mi = '', h = '', dom = '', mo = '', dow = ''] = fields;
  const days = parseField(dom, { min: 1, max: 31 });
  const weekdays = parseField(dow, { min: 0, max: 6, names: DAY_NAMES });
  return {
    minutes: parseField(mi, { min: 0, max: 59 }).values,
    hours: parseField(h, { min: 0, max: 23 }).values,
    daysOfMonth: days.values,
    months: parseField(mo, { min: 1, max: 12, names: MONTH_NAMES, nameOffset: 1 }).values,
    daysOfWeek: weekdays.values,
    domStar: days.star,
    dowStar: weekdays.star,
  };
}

export function isCron(text: string): boolean {
  try {
    parseCron(text);
    return true;
  } catch {
    return false;
  }
}

const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;
const floorTo = (t: number, unit: number): number => t - (((t % unit) + unit) % unit);

function dayMatches(s: CronSchedule, d: Date): boolean {
  const dom = s.daysOfMonth.has(d.getUTCDate());
  const dow = s.daysOfWeek.has(d.getUTCDay());
  // cron's rule: when both day fields are restricted, either may match.
  if (s.domStar || s.dowStar) return dom && dow;
  return dom || dow;
}

/** Days in a month of a leap year: the most a month can hold. */
const MONTH_DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * False for a schedule that can never fire (`0 0 31 2 *`): robfig/cron's Next then gives the zero time, which
 * Karpenter's Budget.IsActive reads as "not after now" — such a budget is always active.
 */
export function canFire(s: CronSchedule): boolean {
  if (s.minutes.size === 0 || s.hours.size === 0 || s.months.size === 0) return false;
  let dateExists = false;
  for (const month of s.months)
    for (const day of s.daysOfMonth) if (day <= (MONTH_DAYS[month - 1] ?? 0)) dateExists = true;
  // every month holds every weekday, so a non-empty day-of-week field can always match
  const weekdayExists = s.daysOfWeek.size > 0;
  return s.domStar || s.dowStar ? dateExists && weekdayExists : dateExists || weekdayExists;
}

/**
 * The latest firing at or before `at` within `lookbackMs`, or undefined. Minute resolution. Steps are plain
 * arithmetic on UTC milliseconds (no Date.UTC, which maps years 0–99 to the 1900s), so the walk always ends.
 */
export function lastFiring(s: CronSchedule, at: Date, lookbackMs: number): Date | undefined {
  if (!canFire(s)) return undefined;
  const end = floorTo(at.getTime(), MINUTE);
  const start = end - lookbackMs;
  for (let t = end; t >= start;) {
    const d = new Date(t);
    if (!s.months.has(d.getUTCMonth() + 1) || !dayMatches(s, d)) {
      t = floorTo(t, DAY) - MINUTE; // the previous day's last minute
    } else if (!s.hours.has(d.getUTCHours())) {
      t = floorTo(t, HOUR) - MINUTE;
    } else if (s.minutes.has(d.getUTCMinutes())) {
      return d;
    } else t -= MINUTE;
  }
  return undefined;
}
