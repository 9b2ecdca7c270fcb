import test from 'ava';
import { parseWrkReport } from '../../../bench/wrk-output.js';

// Reports as wrk 4.1 (Debian) prints them with --latency.
const clean = `Running 10s test @ https://127.0.0.1:41234/apis/example.com/v1/namespaces/default/widgets/w1
  1 threads and 32 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency   850.12us  210.40us  12.34ms   91.20%
    Req/Sec    37.61k     1.02k   39.80k    70.00%
  Latency Distribution
     50%  801.00us
     75%    0.92ms
     90%    1.05ms
     99%    1.71ms
  374262 requests in 10.01s, 466.02MB read
Requests/sec:  37390.81
Transfer/sec:     46.56MB
`;

const troubled = `Running 2s test @ https://127.0.0.1:18443/x
  1 threads and 32 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency    44.51ms   39.05ms    1.21s    65.81%
    Req/Sec   573.94    789.94     3.46k    88.89%
  Latency Distribution
     50%   38.18ms
     75%   68.13ms
     90%  101.79ms
     99%  169.68ms
  1097 requests in 2.16s, 192.98KB read
  Socket errors: connect 2, read 3, write 0, timeout 7
  Non-2xx or 3xx responses: 21
Requests/sec:    508.02
Transfer/sec:     89.37KB
`;

test('a clean run: counts, rate, and latencies in ms whatever unit wrk printed', (t) => {
  const r = parseWrkReport(clean);
  t.is(r.requests, 374262);
  t.is(r.durationSeconds, 10.01);
  t.is(r.requestsPerSec, 37390.81);
  t.deepEqual(r.latencyMs, { mean: 0.85012, p50: 0.801, p90: 1.05, p99: 1.71, max: 12.34 });
  t.is(r.non2xxOr3xx, 0);
  t.deepEqual(r.socketErrors, { connect: 0, read: 0, write: 0, timeout: 0 });
});

test('non-2xx responses and socket errors, printed only when there are some, are read', (t) => {
  const r = parseWrkReport(troubled);
  t.is(r.requests, 1097);
  t.is(r.non2xxOr3xx, 21);
  t.deepEqual(r.socketErrors, { connect: 2, read: 3, write: 0, timeout: 7 });
  t.is(r.latencyMs.max, 1210);
  t.is(r.latencyMs.p99, 169.68);
});

test('a report without the latency distribution (no --latency) is refused, not read as zeros', (t) => {
  const withoutDistribution = clean.replace(/ {2}Latency Distribution\n(?: {5}\d+%.*\n)+/, '');
  t.throws(() => parseWrkReport(withoutDistribution), { message: /50% latency \(run wrk with --latency\)/ });
});

test('something that is not a wrk report is refused', (t) => {
  t.throws(() => parseWrkReport('unable to connect to 127.0.0.1:1 Connection refused\n'), { message: /wrk report: no / });
});
