import { performance } from 'node:perf_hooks';

/**
 * How long one turn of the event loop may spend on work that takes its turn with others (a slice of a large
 * response, the requests waiting in `turnShare`): short enough that it, the storage commit and the writes that follow
 * it and a garbage collection together stay well under 50 ms. (At 10 ms, 2,000 CRDs applied together still held the
 * loop 45–70 ms at times: a piece that starts just before the slice ends runs to its next wait, CRD validation takes
 * a few ms, and the acknowledged writes' own work joins the turn.)
 */
export const sliceMs = 5;

/** When this turn's first share began (performance.now()); undefined until someone asks in this turn. */
let turnStart: number | undefined;
let endScheduled = false;
let releasedThisTurn = false;
const waiting: (() => void)[] = [];

/**
 * Awaited before a piece of work that many requests may start in the same turn of the event loop (32 CRDs posted at
 * once, each decoded and validated for a few ms, would hold the loop for all of them): resolves at once while no one
 * waits and this turn's shares began less than `sliceMs` ago; otherwise on a later turn, after the loop has polled
 * for I/O, in the order asked. The pieces let go on a turn run one after another, each once the one before it has
 * done its synchronous work, while the turn has time left — at least one per turn, so every piece goes on.
 */
export function turnShare(): Promise<void> | undefined {
  const now = performance.now();
  turnStart ??= now;
  endTurnLater();
  if (waiting.length === 0 && now - turnStart < sliceMs) return undefined;
  return new Promise((resolve) => waiting.push(resolve));
}

function endTurnLater(): void {
  if (endScheduled) return;
  endScheduled = true;
  setImmediate(endTurn);
}

/** The turn's end (its check phase): the next turn starts afresh and lets the waiting go, in order. */
function endTurn(): void {
  endScheduled = false;
  turnStart = undefined;
  releasedThisTurn = false;
  if (waiting.length === 0) return;
  // Set from an immediate, these run on the next turn after its I/O, each after the microtasks of the one before.
  for (let i = 0; i < waiting.length; i++) setImmediate(releaseNext);
  endTurnLater();
}

function releaseNext(): void {
  const now = performance.now();
  turnStart ??= now;
  if (releasedThisTurn && now - turnStart >= sliceMs) return;
  releasedThisTurn = true;
  waiting.shift()?.();
}
