import test from 'ava';
import { performance } from 'node:perf_hooks';
import { sliceMs, turnShare } from '../../../../lib/async/turn-share.js';

/**
 * The event loop's turns as the test sees them: a counter moved on in every check phase. The clock is the test's:
 * each piece of work "takes" `pieceMs` by moving it on, so what runs in which turn does not depend on the machine.
 */
async function piecesOverTurns(pieces: number, pieceMs: number) {
  // the turn of an earlier test ends first, on the real clock
  await new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
  const realNow = performance.now.bind(performance);
  let clock = 0;
  performance.now = () => clock;
  let turn = 0;
  let counting = true;
  const tick = () => {
    turn++;
    if (counting) setImmediate(tick);
  };
  setImmediate(tick);
  const ran: { piece: number; turn: number }[] = [];
  try {
    // all asked in one turn, one after the other, as the bodies of requests that arrived together: a piece let go at
    // once has run before the next is asked for
    const running: Promise<void>[] = [];
    for (let piece = 0; piece < pieces; piece++) {
      running.push(
        (async () => {
          await turnShare();
          ran.push({ piece, turn });
          clock += pieceMs;
        })(),
      );
      await Promise.resolve();
      await Promise.resolve();
    }
    await Promise.all(running);
  } finally {
    counting = false;
    performance.now = realNow;
  }
  const perTurn = new Map<number, number>();
  for (const r of ran) perTurn.set(r.turn, (perTurn.get(r.turn) ?? 0) + 1);
  return { order: ran.map((r) => r.piece), perTurn: [...perTurn.values()] };
}

test.serial('pieces asked for together run in the order asked, no more per turn than fit in sliceMs', async (t) => {
  const { order, perTurn } = await piecesOverTurns(32, 2);
  t.deepEqual(order, Array.from({ length: 32 }, (_, i) => i));
  // 2 ms each: three start within a turn's 5 ms (at 0, 2 and 4 ms), the fourth waits for the next turn
  t.is(sliceMs, 5);
  t.true(perTurn.length >= 11, `${perTurn.length} turns`);
  t.true(
    perTurn.every((n) => n <= 3),
    `pieces per turn: ${perTurn.join(' ')}`,
  );
});

test.serial('a piece longer than the slice still goes on, one a turn', async (t) => {
  const { order, perTurn } = await piecesOverTurns(5, 25);
  t.deepEqual(order, [0, 1, 2, 3, 4]);
  t.deepEqual(perTurn, [1, 1, 1, 1, 1]);
});

test.serial('cheap pieces all run in the turn that asked for them', async (t) => {
  const { perTurn } = await piecesOverTurns(50, 0.1);
  t.deepEqual(perTurn, [50]);
});
