import { cborErrors } from './cbor-errors.js';

/** One CBOR data item head: major type, additional information and its argument. */
export interface Head {
  major: number;
  ai: number;
  /** The argument (a length, an integer, a tag number, a simple value or float bits); exact up to 2^53. */
  value: number;
  /** The argument's high and low 32 bits when `ai` is 27, for values beyond 2^53. */
  hi: number;
  lo: number;
  /** The float a major-7 head with `ai` 25–27 carries. */
  float: number;
}

/** The argument of a head as an exact bigint. */
export function headBigInt(h: Head): bigint {
  return h.ai === 27 ? (BigInt(h.hi) << 32n) | BigInt(h.lo) : BigInt(h.value);
}

/** A float16's value. */
function float16(bits: number): number {
  const exponent = (bits >> 10) & 0x1f;
  const fraction = bits & 0x3ff;
  const sign = bits & 0x8000 ? -1 : 1;
  if (exponent === 0) return sign * fraction * 2 ** -24;
  if (exponent === 0x1f) return fraction ? NaN : sign * Infinity;
  return sign * (1024 + fraction) * 2 ** (exponent - 25);
}

/**
 * Reads heads from a buffer. `readHead` checks what fxamacker's `wellformedHead` checks (truncation, reserved
 * additional information, reserved simple values, NaN and infinite floats kube refuses) and advances `off`.
 */
export class HeadReader {
  off = 0;
  private readonly view: DataView;

  constructor(readonly data: Uint8Array) {
    this.view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  }

  get remaining(): number {
    return this.data.length - this.off;
  }

  readHead(): Head {
    const { data, view } = this;
    if (this.off >= data.length) throw cborErrors.unexpectedEnd();
    const initial = data[this.off++]!;
    const major = initial >> 5;
    const ai = initial & 0x1f;
    const head: Head = { major, ai, value: ai, hi: 0, lo: 0, float: 0 };
    if (ai < 24) return head;
    const size = ai === 24 ? 1 : ai === 25 ? 2 : ai === 26 ? 4 : ai === 27 ? 8 : 0;
    if (size === 0) {
      if (ai === 31) {
        if (major === 7) throw cborErrors.unexpectedBreak();
        if (major <= 1 || major === 6) throw cborErrors.invalidAdditionalInfo(ai, major);
        return head;
      }
      throw cborErrors.invalidAdditionalInfo(ai, major);
    }
    if (data.length - this.off < size) throw cborErrors.unexpectedEnd();
    const at = this.off;
    this.off += size;
    switch (size) {
      case 1:
        head.value = data[at]!;
        if (major === 7 && head.value < 32) throw cborErrors.invalidSimple(head.value);
        break;
      case 2:
        head.value = view.getUint16(at);
        if (major === 7) head.float = checkFloat(float16(head.value));
        break;
      case 4:
        head.value = view.getUint32(at);
        if (major === 7) head.float = checkFloat(view.getFloat32(at));
        break;
      default:
        head.hi = view.getUint32(at);
        head.lo = view.getUint32(at + 4);
        head.value = head.hi * 2 ** 32 + head.lo;
        if (major === 7) head.float = checkFloat(view.getFloat64(at));
    }
    return head;
  }
}

function checkFloat(f: number): number {
  if (Number.isNaN(f)) throw cborErrors.unacceptable(7, 'floating-point NaN');
  if (!Number.isFinite(f)) throw cborErrors.unacceptable(7, 'floating-point infinity');
  return f;
}
