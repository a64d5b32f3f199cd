// Standard five-field cron schedules in UTC (plus @yearly … @hourly), as Karpenter's disruption budgets
// read them (robfig/cron's standard parser). Pure: callers pass the instant.

export interface CronSchedule {
  readonly minutes: ReadonlySet<number>;
  readonly hours: ReadonlySet<number>;
  readonly daysOfMonth: ReadonlySet<number>;
  readonly months: ReadonlySet<number>;
  readonly daysOfWeek: ReadonlySet<number>;
  readonly domStar: boolean;
  readonly dowStar: boolean;
}

export class CronError extends Error {
  override name = 'CronError';
}

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

function parseValue(text: string, names: string[] | undefined, offset: number): number {
  const named = names?.indexOf(text.toLowerCase()) ?? -1;
  if (named >= 0) return named + offset;
  if (!/^\d+$/.test(text)) throw new CronError(`invalid cron value "${text}"`);
  return Number(text);
}

function parseField(field: string, min: number, max: number, names?: string[], nameOffset = 0): Set<number> {
  const out = new Set<number>();
  for (const part of field.split(',')) {
    const [range = '', stepText] = part.split('/');
    const step = stepText === undefined ? 1 : Number(stepText);
    if (!Number.isInteger(step) || step < 1) throw new CronError(`invalid cron step in "${part}"`);
    let lo: number;
    let hi: number;
    if (range === '*' || range === '?') {
      lo = min;
      hi = max;
    } else if (range.includes('-')) {
      const [a = '', b = ''] = range.split('-');
      lo = parseValue(a, names, nameOffset);
      hi = parseValue(b, names, nameOffset);
    } else {
      lo = parseValue(range, names, nameOffset);
      hi = stepText === undefined ? lo : max;
    }
    if (lo < min || hi > max || lo > hi)
      throw new CronError(`cron value out of range in "${part}" (${min}-${max})`);
    for (let v = lo; v <= hi; v += step) out.add(v);
  }
  return out;
}

export function parseCron(text: string): CronSchedule {
  const expr = MACROS[text.trim()] ?? text.trim();
  const fields = expr.split(/\s+/);
  if (fields.length !== 5) throw new CronError(`cron schedule "${text}" must have 5 fields`);
  const [mi = '', h = '', dom = '', mo = '', dow = ''] = fields;
  const daysOfWeek = parseField(dow, 0, 7, DAY_NAMES);
  if (daysOfWeek.has(7)) daysOfWeek.add(0);
  return {
    minutes: parseField(mi, 0, 59),
    hours: parseField(h, 0, 23),
    daysOfMonth: parseField(dom, 1, 31),
    months: parseField(mo, 1, 12, MONTH_NAMES, 1),
    daysOfWeek,
    domStar: dom === '*' || dom === '?',
    dowStar: dow === '*' || dow === '?',
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

function dayMatches(s: CronSchedule, d: Date): boolean {
  const dom = s.daysOfMonth.has(d.getUTCDate());
  const dow = s.daysOfWeek.has(d.getUTCDay());
  // cron's rule: when both day fields are restricted, either may match.
  if (s.domStar || s.dowStar) return dom && dow;
  return dom || dow;
}

/** The latest firing at or before `at` within `lookbackMs`, or undefined. Minute resolution. */
export function lastFiring(s: CronSchedule, at: Date, lookbackMs: number): Date | undefined {
  const end = Math.floor(at.getTime() / 60_000) * 60_000;
  const start = end - lookbackMs;
  for (let t = end; t >= start;) {
    const d = new Date(t);
    if (!s.months.has(d.getUTCMonth() + 1) || !dayMatches(s, d)) {
      t = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()) - 60_000; // previous day's last minute
      continue;
    }
    if (!s.hours.has(d.getUTCHours())) {
      t = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), d.getUTCHours()) - 60_000;
      continue;
    }
    if (s.minutes.has(d.getUTCMinutes())) return d;
    t -= 60_000;
  }
  return undefined;
}
