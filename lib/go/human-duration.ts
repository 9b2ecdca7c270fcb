import { isZeroTime, parseRFC3339, timeMillis } from './timestamp.js';

/**
 * k8s.io/apimachinery/pkg/util/duration.HumanDuration: a duration (milliseconds) in about 2-3 significant figures,
 * as kubectl shows ages: `59s`, `119s`, `2m`, `5m30s`, `10m`, `3h`, `7h59m`, `8h`, `2d`, `7d23h`, `8d`, `729d`, `2y`, `2y5d`, `8y`.
 */
export function humanDuration(ms: number): string {
  const seconds = Math.trunc(ms / 1000);
  // Up to 2 seconds in the future is tolerated as clock skew.
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 60 * 2) return `${seconds}s`;
  const minutes = Math.trunc(seconds / 60);
  if (minutes < 10) {
    const s = seconds % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 60 * 3) return `${minutes}m`;
  const hours = Math.trunc(minutes / 60);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  const days = Math.trunc(hours / 24);
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${days}d` : `${days}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${days}d`;
  const years = Math.trunc(days / 365);
  if (hours < 24 * 365 * 8) {
    const d = days % 365;
    return d === 0 ? `${years}y` : `${years}y${d}d`;
  }
  return `${years}y`;
}

/**
 * The age of a timestamp as kube prints it: metatable.ConvertToHumanReadableDateType of the time as
 * metav1.Time.UnmarshalQueryParameter reads it, so `<unknown>` when unset (absent, "", "null" or Go's zero time) and
 * `<invalid>` when it is no RFC 3339 time.
 */
export function age(timestamp: string | undefined, now: Date): string {
  if (!timestamp || timestamp === 'null') return '<unknown>';
  const t = parseRFC3339(timestamp);
  if (t === undefined) return '<invalid>';
  return isZeroTime(t) ? '<unknown>' : humanDuration(now.getTime() - timeMillis(t));
}
