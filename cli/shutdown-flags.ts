import type { ShutdownOptions } from '../index.js';
import { parseBool } from './bool-flag.js';
import { parseDurationFlag } from './duration-flag.js';
import { UsageError } from './usage-error.js';

export const shutdownUsage = `  --shutdown-delay-duration DURATION
                              on SIGTERM or SIGINT, how long /readyz fails while requests are still served, before new
                              ones are refused and the server drains, e.g. 5s (default 0s); a second signal exits at once
  --shutdown-send-retry-after[=BOOL]
                              once the delay has passed, keep listening and answer new requests 429 with Retry-After
                              until the requests in flight are done (default false: stop listening then)
  --shutdown-watch-termination-grace-period DURATION
                              the time over which watches are ended during shutdown, paced (default 0s: all at once)
`;

export const shutdownFlagOptions = {
  'shutdown-delay-duration': { type: 'string' },
  'shutdown-send-retry-after': { type: 'string' },
  'shutdown-watch-termination-grace-period': { type: 'string' },
} as const;

/** Given without a value, the boolean flag means true, as in kube's flag library. */
export const shutdownBooleanFlags = ['--shutdown-send-retry-after'];

type ShutdownFlag = keyof typeof shutdownFlagOptions;

/** kube-apiserver's graceful termination flags, with its messages for negative durations. */
export function parseShutdownFlags(values: Partial<Record<ShutdownFlag, string>>): ShutdownOptions {
  const delay = values['shutdown-delay-duration'];
  const grace = values['shutdown-watch-termination-grace-period'];
  const retryAfter = values['shutdown-send-retry-after'];
  return {
    ...(delay !== undefined ? { delayMs: durationMs('shutdown-delay-duration', delay, '--shutdown-delay-duration can not be negative value') } : {}),
    ...(retryAfter !== undefined ? { sendRetryAfter: parseBool('shutdown-send-retry-after', retryAfter) } : {}),
    ...(grace !== undefined
      ? { watchTerminationGracePeriodMs: durationMs('shutdown-watch-termination-grace-period', grace, 'shutdown-watch-termination-grace-period, if provided, can not be a negative value') }
      : {}),
  };
}

/** A Go duration flag in milliseconds (sub-millisecond parts round up), refused with `negative` when below 0. */
function durationMs(flag: ShutdownFlag, text: string, negative: string): number {
  const nanos = parseDurationFlag(flag, text);
  if (nanos < 0n) throw new UsageError(negative);
  return Number((nanos + 999_999n) / 1_000_000n);
}
