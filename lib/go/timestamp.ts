/** Milliseconds of Go's zero time.Time (0001-01-01T00:00:00Z), which kube treats as "unset". */
const ZERO_TIME_MS = Date.parse('0001-01-01T00:00:00Z');

const rfc3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-](\d{2}):(\d{2}))$/;

/** Parses a timestamp as Go's time.Parse(time.RFC3339, …) does; undefined when it would fail. */
export function parseRFC3339(text: string): number | undefined {
  const m = rfc3339.exec(text);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number);
  const daysInMonth = new Date(Date.UTC(2000, month, 0)).getUTCDate() - (month === 2 && !isLeap(year) ? 1 : 0);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth || hour > 23 || minute > 59 || second > 59) return undefined;
  if (m[9] !== undefined && (Number(m[9]) > 23 || Number(m[10]) > 59)) return undefined;
  return Date.parse(text);
}

function isLeap(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** metav1.Time's "IsZero" for a parsed timestamp. */
export function isZeroTime(ms: number): boolean {
  return ms === ZERO_TIME_MS;
}
