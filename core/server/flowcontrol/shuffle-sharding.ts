import { hash } from 'node:crypto';

/**
 * A flow's identity as a 48-bit number: enough entropy to deal a hand of up to 6 queues from a deck of 128 without
 * bias worth noticing (kube hashes the FlowSchema's name and the distinguisher with FNV-64a the same way).
 */
export function flowHash(flowSchema: string, distinguisher: string): number {
  return hash('md5', `${flowSchema}\0${distinguisher}`, 'buffer').readUIntBE(0, 6);
}

/**
 * Shuffle sharding: the `handSize` distinct queues of a deck of `deckSize` that a flow may use, drawn from its hash as
 * successive mixed-radix digits (deckSize, deckSize-1, …), each digit picking among the cards not dealt yet. Two flows
 * rarely get the same hand, so one heavy flow rarely fills every queue another flow may use.
 */
export function dealHand(hash: number, deckSize: number, handSize: number): number[] {
  const hand: number[] = [];
  let rest = hash;
  for (let i = 0; i < handSize && i < deckSize; i++) {
    const remaining = deckSize - i;
    let card = rest % remaining;
    rest = Math.floor(rest / remaining);
    // the card-th queue not dealt yet: skip over those dealt before, in ascending order
    for (const dealt of [...hand].sort((a, b) => a - b)) if (dealt <= card) card++;
    hand.push(card);
  }
  return hand;
}
