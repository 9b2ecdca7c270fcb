/** Reads the report `wrk --latency` prints (wrk 4.x) into numbers. */

export interface WrkReport {
  /** Responses completed ("N requests in …"), any status. */
  requests: number;
  durationSeconds: number;
  /** The "Requests/sec" line: requests ÷ wrk's own measure of the run time. */
  requestsPerSec: number;
  latencyMs: { mean: number; p50: number; p90: number; p99: number; max: number };
  /** Responses with a status outside 2xx and 3xx. */
  non2xxOr3xx: number;
  socketErrors: { connect: number; read: number; write: number; timeout: number };
}

/** wrk's time units (units.c), in ms. */
const msPerUnit: Record<string, number> = { us: 1e-3, ms: 1, s: 1e3, m: 60e3, h: 3600e3 };

export function parseWrkReport(text: string): WrkReport {
  const time = (raw: string | undefined, what: string): number => {
    const m = /^([\d.]+)(us|ms|s|m|h)$/.exec(raw ?? '');
    if (!m) throw new Error(`wrk report: cannot read ${what} from ${JSON.stringify(raw)}`);
    return Number(m[1]) * msPerUnit[m[2]!]!;
  };
  const need = (re: RegExp, what: string): RegExpExecArray => {
    const m = re.exec(text);
    if (!m) throw new Error(`wrk report: no ${what} in:\n${text}`);
    return m;
  };
  const stats = need(/^ *Latency +(\S+) +\S+ +(\S+) +\S+% *$/m, 'latency thread stats (Avg, Max)');
  const percentile = (p: number) => time(need(new RegExp(`^ *${p}% +(\\S+) *$`, 'm'), `${p}% latency (run wrk with --latency)`)[1], `${p}% latency`);
  const done = need(/^ *(\d+) requests in (\S+), /m, 'requests line');
  const socket = /^ *Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+) *$/m.exec(text);
  return {
    requests: Number(done[1]),
    durationSeconds: time(done[2], 'duration') / 1e3,
    requestsPerSec: Number(need(/^Requests\/sec: +([\d.]+) *$/m, 'Requests/sec')[1]),
    latencyMs: { mean: time(stats[1], 'mean latency'), p50: percentile(50), p90: percentile(90), p99: percentile(99), max: time(stats[2], 'max latency') },
    // wrk prints these two lines only when a count is not 0.
    non2xxOr3xx: Number(/^ *Non-2xx or 3xx responses: (\d+) *$/m.exec(text)?.[1] ?? 0),
    socketErrors: socket
      ? { connect: Number(socket[1]), read: Number(socket[2]), write: Number(socket[3]), timeout: Number(socket[4]) }
      : { connect: 0, read: 0, write: 0, timeout: 0 },
  };
}
