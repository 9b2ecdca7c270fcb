import { parseBool } from './bool-flag.js';
import { UsageError } from './usage-error.js';

export const requestLimitUsage = `  --max-requests-inflight N   with priority and fairness, added to --max-mutating-requests-inflight to make the
                              server's concurrency limit, shared by the priority levels; without, the most read-only
                              requests served at once, 0 for no limit (default 400)
  --max-mutating-requests-inflight N
                              as above, for mutating requests (default 200)
  --enable-priority-and-fairness[=BOOL]
                              classify requests by FlowSchemas and queue them fairly per priority level (default true);
                              false: the plain max-in-flight limits
`;

export const requestLimitFlagOptions = {
  'max-requests-inflight': { type: 'string' },
  'max-mutating-requests-inflight': { type: 'string' },
  'enable-priority-and-fairness': { type: 'string' },
} as const;

/** Given without a value, it means true. */
export const requestLimitBooleanFlags = ['--enable-priority-and-fairness'];

type RequestLimitFlag = keyof typeof requestLimitFlagOptions;

export interface RequestLimitServeOptions {
  maxRequestsInflight: number;
  maxMutatingRequestsInflight: number;
  enablePriorityAndFairness: boolean;
}

/** kube-apiserver's in-flight limits and its priority and fairness switch, with its messages. */
export function parseRequestLimitFlags(values: Partial<Record<RequestLimitFlag, string>>): RequestLimitServeOptions {
  const maxRequestsInflight = parseLimit(values, 'max-requests-inflight', 400);
  const maxMutatingRequestsInflight = parseLimit(values, 'max-mutating-requests-inflight', 200);
  const enablePriorityAndFairness = parseBool('enable-priority-and-fairness', values['enable-priority-and-fairness'] ?? 'true');
  if (enablePriorityAndFairness && maxRequestsInflight + maxMutatingRequestsInflight <= 0) {
    throw new UsageError('--max-requests-inflight plus --max-mutating-requests-inflight must be positive with --enable-priority-and-fairness');
  }
  return { maxRequestsInflight, maxMutatingRequestsInflight, enablePriorityAndFairness };
}

function parseLimit(values: Partial<Record<RequestLimitFlag, string>>, flag: RequestLimitFlag, fallback: number): number {
  const text = values[flag];
  if (text === undefined) return fallback;
  if (!/^-?\d+$/.test(text)) throw new UsageError(`invalid argument "${text}" for "--${flag}" flag: strconv.ParseInt: parsing ${JSON.stringify(text)}: invalid syntax`);
  const value = Number(text);
  if (value < 0) throw new UsageError(`--${flag} can not be negative value`);
  return value;
}
