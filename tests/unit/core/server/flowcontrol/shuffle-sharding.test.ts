import test from 'ava';
import { dealHand, flowHash } from '../../../../../core/server/flowcontrol/shuffle-sharding.js';

test('a hand holds handSize distinct queues of the deck, the same for the same flow', (t) => {
  for (let flow = 0; flow < 200; flow++) {
    const hash = flowHash('global-default', `user-${flow}`);
    const hand = dealHand(hash, 128, 6);
    t.is(new Set(hand).size, 6);
    t.true(hand.every((q) => Number.isInteger(q) && q >= 0 && q < 128));
    t.deepEqual(dealHand(hash, 128, 6), hand);
  }
});

test('a hand as large as the deck is the whole deck; different flows get different hands', (t) => {
  t.deepEqual([...dealHand(flowHash('fs', 'a'), 5, 5)].sort(), [0, 1, 2, 3, 4]);
  const hands = new Set(Array.from({ length: 100 }, (_, i) => dealHand(flowHash('fs', `user-${i}`), 64, 6).join(',')));
  t.true(hands.size > 95, `${hands.size} distinct hands of 100`);
});
