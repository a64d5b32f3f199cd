// metav1.Time as the API server reads it: Go's time.RFC3339 layout — "2006-01-02T15:04:05Z07:00" with optional
// fractional seconds, an upper-case T and Z, real calendar dates, seconds 0–59 — and nothing else ("1" is refused).

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(Z|[+-](\d{2}):(\d{2}))$/;
const LEAP_DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

const isLeap = (y: number): boolean => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;

/** Milliseconds since the epoch of a metav1.Time string, or undefined when Go's RFC 3339 parse refuses it. */
export function parseTimestamp(text: string): number | undefined {
  if (text.length > 40) return undefined;
  const m = RFC3339.exec(text);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const monthDays = month === 2 && !isLeap(year) ? 28 : (LEAP_DAYS[month - 1] ?? 0);
  if (month < 1 || month > 12 || day < 1 || day > monthDays || hour > 23 || minute > 59 || second > 59)
    return undefined;
  if (m[9] !== undefined && (Number(m[9]) > 23 || Number(m[10]) > 59)) return undefined;
  // Date.parse reads the ISO form exactly for years 0000–9999 (it keeps at most milliseconds)
  const ms = Date.parse(text.replace(/(\.\d{3})\d+/, '$1'));
  return Number.isNaN(ms) ? undefined : ms;
}

export const isTimestamp = (text: string): boolean => parseTimestamp(text) !== undefined;
