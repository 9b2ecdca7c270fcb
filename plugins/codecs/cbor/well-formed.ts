import { cborErrors } from './cbor-errors.js';
import { headBigInt, HeadReader } from './cbor-head.js';
import { cborLimits } from './cbor-limits.js';

/**
 * Checks that `data` is exactly one well-formed CBOR data item within kube's limits, before anything is decoded, as
 * fxamacker's `wellformed` does for kube: truncation, reserved encodings, indefinite-length chunks, nesting beyond
 * 64 levels, more than 1024 array elements or map pairs (refused from the declared length, so a huge header allocates
 * nothing), the bignum tags, NaN/infinite floats, and bytes after the item. Throws CborError.
 */
export function checkWellFormed(data: Uint8Array): void {
  if (data.length === 0) throw cborErrors.empty();
  const r = new HeadReader(data);
  item(r, 0);
  if (r.off !== data.length) throw cborErrors.extraneous(data.length - r.off, r.off);
}

/** Recursion is bounded: only arrays and maps recurse, and they count against the nesting limit. */
function item(r: HeadReader, depth: number): void {
  const h = r.readHead();
  const indefinite = h.ai === 31;
  switch (h.major) {
    case 2:
    case 3:
      if (indefinite) return indefiniteString(r, h.major, depth);
      if (h.ai === 27 && h.hi >= 0x80000000) throw cborErrors.lengthOverflow(h.major, headBigInt(h), false);
      if (r.remaining < h.value) throw cborErrors.unexpectedEnd();
      r.off += h.value;
      return;
    case 4:
    case 5: {
      depth++;
      if (depth > cborLimits.maxNestedLevels) throw cborErrors.maxNesting(cborLimits.maxNestedLevels);
      if (indefinite) return indefiniteContainer(r, h.major, depth);
      if (h.ai === 27 && h.hi >= 0x80000000) throw cborErrors.lengthOverflow(h.major, headBigInt(h), true);
      if (h.major === 4 && h.value > cborLimits.maxArrayElements) throw cborErrors.maxArrayElements(cborLimits.maxArrayElements);
      if (h.major === 5 && h.value > cborLimits.maxMapPairs) throw cborErrors.maxMapPairs(cborLimits.maxMapPairs);
      const items = h.major === 5 ? h.value * 2 : h.value;
      for (let i = 0; i < items; i++) item(r, depth);
      return;
    }
    case 6: {
      // A chain of tags is walked in a loop; each tag after the first counts as a nesting level.
      let tag = h.ai === 27 ? Number.MAX_SAFE_INTEGER : h.value;
      for (;;) {
        if (r.remaining === 0) throw cborErrors.unexpectedEnd();
        if (tag === 2 || tag === 3) throw cborErrors.unacceptable(6, 'bignum');
        if (r.data[r.off]! >> 5 !== 6) break;
        const next = r.readHead();
        tag = next.ai === 27 ? Number.MAX_SAFE_INTEGER : next.value;
        depth++;
        if (depth > cborLimits.maxNestedLevels) throw cborErrors.maxNesting(cborLimits.maxNestedLevels);
      }
      return item(r, depth);
    }
    default:
      return;
  }
}

function indefiniteString(r: HeadReader, major: number, depth: number): void {
  for (;;) {
    if (r.remaining === 0) throw cborErrors.unexpectedEnd();
    const initial = r.data[r.off]!;
    if (initial === 0xff) {
      r.off++;
      return;
    }
    if (initial >> 5 !== major) throw cborErrors.wrongChunk(initial >> 5, major);
    if ((initial & 0x1f) === 31) throw cborErrors.nestedIndefiniteChunk(major);
    item(r, depth);
  }
}

function indefiniteContainer(r: HeadReader, major: number, depth: number): void {
  let count = 0;
  for (;;) {
    if (r.remaining === 0) throw cborErrors.unexpectedEnd();
    if (r.data[r.off] === 0xff) {
      r.off++;
      break;
    }
    item(r, depth);
    count++;
    if (major === 4 && count > cborLimits.maxArrayElements) throw cborErrors.maxArrayElements(cborLimits.maxArrayElements);
    if (major === 5 && count % 2 === 0 && count / 2 > cborLimits.maxMapPairs) throw cborErrors.maxMapPairs(cborLimits.maxMapPairs);
  }
  if (major === 5 && count % 2 === 1) throw cborErrors.unexpectedBreak();
}
