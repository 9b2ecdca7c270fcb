import type { RequestInfo } from '../../request/request-info.js';
import type { Seats } from './queue-set.js';

/** kube's work estimator defaults (--max-seats is not a flag of kube-apiserver either). */
const maximumSeats = 10;
const objectsPerSeat = 100;
const watchesPerSeat = 10;
const eventAdditionalMs = 5;

/** What the server knows of a resource's size: its objects (unknown: undefined) and the watches following it. */
export interface ResourceLoad {
  objects: number | undefined;
  watchers: number;
}

const mutatingVerbs = new Set(['create', 'update', 'patch', 'delete', 'deletecollection']);

/**
 * The seats a request takes, after kube's WorkEstimator:
 * - a list: one seat per 100 objects it goes through (the resource's object count, or `limit` when smaller), 1 to 10;
 *   an unknown count takes the maximum;
 * - a watch: as a list when it starts with the current state (no resourceVersion, "0", or sendInitialEvents=true),
 *   else one seat — held until its response starts, not for its whole life;
 * - a write: one seat, and with 10 or more watches of the resource one seat per 10 watches (up to 10), held for the
 *   write and 5 ms per watch spread over those seats afterwards (the cost of notifying the watches);
 * - anything else: one seat.
 */
export function estimateSeats(info: RequestInfo, query: URLSearchParams, load: (info: RequestInfo) => ResourceLoad): Seats {
  if (!info.isResourceRequest) return { width: 1, additionalLatencyMs: 0 };
  if (info.verb === 'list' || (info.verb === 'watch' && startsWithState(query))) {
    const { objects } = load(info);
    if (objects === undefined) return { width: maximumSeats, additionalLatencyMs: 0 };
    const limit = Number(query.get('limit') ?? 0);
    const processed = info.verb === 'list' && limit > 0 && limit < objects ? limit : objects;
    return { width: clamp(Math.ceil(processed / objectsPerSeat)), additionalLatencyMs: 0 };
  }
  if (!mutatingVerbs.has(info.verb)) return { width: 1, additionalLatencyMs: 0 };
  const { watchers } = load(info);
  if (watchers < watchesPerSeat) return { width: 1, additionalLatencyMs: 0 };
  const finalSeats = Math.ceil(watchers / watchesPerSeat);
  const width = clamp(finalSeats);
  return { width, additionalLatencyMs: (finalSeats * eventAdditionalMs) / width };
}

function startsWithState(query: URLSearchParams): boolean {
  const rv = query.get('resourceVersion');
  return !rv || rv === '0' || query.get('sendInitialEvents') === 'true';
}

function clamp(seats: number): number {
  return Math.min(maximumSeats, Math.max(1, seats));
}
