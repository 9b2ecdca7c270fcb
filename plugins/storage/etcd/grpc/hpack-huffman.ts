/** Decoding of HPACK Huffman-coded string literals (RFC 7541 §5.2, Appendix B). */
import { HpackError } from './hpack-error.js';

const EOS = 256;
const MAX_BITS = 30;

/** Code length in bits of octets 0..255, then of EOS (256), from RFC 7541 Appendix B. */
const CODE_LENGTHS = [
  /*   0 */ 13, 23, 28, 28, 28, 28, 28, 28, 28, 24, 30, 28, 28, 30, 28, 28,
  /*  16 */ 28, 28, 28, 28, 28, 28, 30, 28, 28, 28, 28, 28, 28, 28, 28, 28,
  /*  32 */ 6, 10, 10, 12, 13, 6, 8, 11, 10, 10, 8, 11, 8, 6, 6, 6,
  /*  48 */ 5, 5, 5, 6, 6, 6, 6, 6, 6, 6, 7, 8, 15, 6, 12, 10,
  /*  64 */ 13, 6, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7,
  /*  80 */ 7, 7, 7, 7, 7, 7, 7, 7, 8, 7, 8, 13, 19, 13, 14, 6,
  /*  96 */ 15, 5, 6, 5, 6, 5, 6, 6, 6, 5, 7, 7, 6, 6, 6, 5,
  /* 112 */ 6, 7, 6, 5, 5, 6, 7, 7, 7, 7, 7, 15, 11, 14, 13, 28,
  /* 128 */ 20, 22, 20, 20, 22, 22, 22, 23, 22, 23, 23, 23, 23, 23, 24, 23,
  /* 144 */ 24, 24, 22, 23, 24, 23, 23, 23, 23, 21, 22, 23, 22, 23, 23, 24,
  /* 160 */ 22, 21, 20, 22, 22, 23, 23, 21, 23, 22, 22, 24, 21, 22, 23, 23,
  /* 176 */ 21, 21, 22, 21, 23, 22, 23, 23, 20, 22, 22, 22, 23, 22, 22, 23,
  /* 192 */ 26, 26, 20, 19, 22, 23, 22, 25, 26, 26, 26, 27, 27, 26, 24, 25,
  /* 208 */ 19, 21, 26, 27, 27, 26, 27, 24, 21, 21, 26, 26, 28, 27, 27, 27,
  /* 224 */ 20, 24, 20, 21, 22, 21, 21, 23, 22, 22, 25, 25, 24, 24, 26, 23,
  /* 240 */ 26, 27, 26, 26, 27, 27, 27, 27, 27, 28, 27, 27, 27, 27, 27, 26,
  /* 256 */ 30,
];

// The code is canonical: codes are handed out in order of (length, symbol), so each length's codes are consecutive
// numbers and the tables below (built once) are all a decoder needs.
const codeOf: number[] = [];
const symbolsInCodeOrder: number[] = [];
const firstCodeOfLength: number[] = [];
const firstIndexOfLength: number[] = [];
const countOfLength: number[] = [];
{
  let code = 0;
  for (let bits = 1; bits <= MAX_BITS; bits++) {
    firstCodeOfLength[bits] = code;
    firstIndexOfLength[bits] = symbolsInCodeOrder.length;
    for (let symbol = 0; symbol <= EOS; symbol++) {
      if (CODE_LENGTHS[symbol] !== bits) continue;
      codeOf[symbol] = code++;
      symbolsInCodeOrder.push(symbol);
    }
    countOfLength[bits] = code - firstCodeOfLength[bits];
    code *= 2;
  }
}

/** The canonical code generated for a symbol (0..256), exposed so tests can check it against RFC 7541 Appendix B. */
export function canonicalHuffmanCode(symbol: number): { code: number; bits: number } {
  return { code: codeOf[symbol], bits: CODE_LENGTHS[symbol] };
}

let scratch = Buffer.allocUnsafe(256);

/** Decodes buf[start, end) as a Huffman-coded string; the result holds one char per decoded octet (latin1). */
export function huffmanDecode(buf: Buffer, start: number, end: number): string {
  const maxSymbols = Math.ceil(((end - start) * 8) / 5); // the shortest code is 5 bits
  if (scratch.length < maxSymbols) scratch = Buffer.allocUnsafe(maxSymbols);
  let n = 0;
  let code = 0; // the bits read since the last symbol
  let bits = 0;
  for (let i = start; i < end; i++) {
    const octet = buf[i];
    for (let shift = 7; shift >= 0; shift--) {
      code = (code << 1) | ((octet >> shift) & 1);
      bits++;
      // A prefix that is no code yet is always numerically past this length's codes, so offset >= 0.
      const offset = code - firstCodeOfLength[bits];
      if (offset >= countOfLength[bits]) continue;
      const symbol = symbolsInCodeOrder[firstIndexOfLength[bits] + offset];
      if (symbol === EOS) throw new HpackError('Huffman-coded string contains the EOS symbol');
      scratch[n++] = symbol;
      code = 0;
      bits = 0;
    }
  }
  if (bits > 7) throw new HpackError('Huffman padding is longer than 7 bits');
  if (code !== (1 << bits) - 1) throw new HpackError('Huffman padding is not a prefix of the EOS code');
  return scratch.toString('latin1', 0, n);
}
