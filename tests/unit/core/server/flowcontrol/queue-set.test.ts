import test from 'ava';
import { setImmediate as nextLoopTurn } from 'node:timers/promises';
import { QueueSet } from '../../../../../core/server/flowcontrol/queue-set.js';

const oneSeat = { width: 1, additionalLatencyMs: 0 };

/** Takes a seat for flow `hash`, records the turn, and gives the seat back after a handler that needs no I/O. */
async function serve(queues: QueueSet, order: string[], name: string, hash: number): Promise<void> {
  const ticket = await queues.acquire(hash, oneSeat, new AbortController().signal);
  if (typeof ticket === 'string') throw new Error(`${name}: ${ticket}`);
  order.push(name);
  await Promise.resolve();
  ticket.release();
}

test('a backlog of requests that need no I/O is dispatched across event-loop turns, not in one microtask chain', async (t) => {
  // Were the next request dispatched from the finished one's continuation, the whole backlog would be served before
  // the event loop turns again: no request arriving meanwhile could even be read, let alone get its fair turn.
  const queues = new QueueSet({ concurrencyLimit: 1, queuing: { queues: 64, handSize: 8, queueLengthLimit: 1000 } }, 60_000);
  const order: string[] = [];
  const backlog = Array.from({ length: 200 }, (_, i) => serve(queues, order, `r${i}`, 1));
  await nextLoopTurn();
  t.true(order.length < 10, `${order.length} requests were served before the event loop turned`);
  await Promise.all(backlog);
  t.is(order.length, 200);
});

test('a released seat goes to the next waiting request of the same flow when no other flow waits', async (t) => {
  const queues = new QueueSet({ concurrencyLimit: 2, queuing: { queues: 8, handSize: 2, queueLengthLimit: 50 } }, 60_000);
  const order: string[] = [];
  await Promise.all(Array.from({ length: 10 }, (_, i) => serve(queues, order, `r${i}`, 7)));
  t.deepEqual([...order].sort(), Array.from({ length: 10 }, (_, i) => `r${i}`).sort());
  t.is(queues.seatsInUse, 0);
  t.is(queues.requestsWaiting, 0);
});

test('requests that arrive in one event-loop turn are dispatched in fair order, not first come, first served', async (t) => {
  const queues = new QueueSet({ concurrencyLimit: 4, queuing: { queues: 64, handSize: 1, queueLengthLimit: 50 } }, 60_000);
  const granted: string[] = [];
  const take = (name: string, hash: number) =>
    queues.acquire(hash, oneSeat, new AbortController().signal).then((ticket) => {
      if (typeof ticket === 'string') throw new Error(`${name}: ${ticket}`);
      granted.push(name);
      return ticket;
    });
  // A busy flow's four requests are read before a quiet flow's one (one queue each); each would fill a free seat on arrival.
  const tickets = [...['a1', 'a2', 'a3', 'a4'].map((name) => take(name, 1)), take('quiet', 2)];
  await nextLoopTurn();
  t.is(granted.length, 4);
  t.true(granted.includes('quiet'), `seats went to ${granted.join(', ')}`);
  for (const ticket of granted.map((name) => tickets[name === 'quiet' ? 4 : Number(name[1]) - 1]!)) (await ticket).release();
  await Promise.all(tickets);
  t.is(granted.length, 5);
});

test('a flow that becomes active behind a long backlog of another is served at its next turn, not after the backlog', async (t) => {
  const queues = new QueueSet({ concurrencyLimit: 1, queuing: { queues: 64, handSize: 1, queueLengthLimit: 5000 } }, 60_000);
  const order: string[] = [];
  const backlog = Array.from({ length: 3000 }, (_, i) => serve(queues, order, `a${i}`, 1));
  await new Promise((resolve) => setTimeout(resolve, 30)); // real time passes while the backlog is served, a request a turn
  const servedBefore = order.length;
  const quiet = serve(queues, order, 'quiet', 2);
  await quiet;
  t.true(order.indexOf('quiet') <= servedBefore + 2, `quiet was served after ${order.indexOf('quiet') - servedBefore} more of the backlog`);
  await Promise.all(backlog);
});
