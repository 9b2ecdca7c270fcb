import { formatIPv4, parseIPv4 } from '../../lib/k8s/network-validation.js';

/** kube-apiserver's default `--service-cluster-ip-range` (kubeoptions.DefaultServiceIPCIDR). */
export const defaultServiceClusterIPRange = '10.0.0.0/24';

/**
 * The IPv4 range Service cluster IPs come from (`--service-cluster-ip-range`): as kube's allocator, neither the
 * network address nor the broadcast address is handed out. Addresses are numbered from 0 (the first usable one).
 */
export class ServiceIPRange {
  /** The first usable address, as a number. */
  readonly base: number;
  /** How many addresses can be handed out. */
  readonly size: number;
  /**
   * Dynamic allocation prefers addresses from here on, leaving the lower band to addresses users ask for
   * (KEP-3070; kube's calculateRangeOffset: size/16, between 16 and 256).
   */
  readonly staticBand: number;

  private constructor(readonly cidr: string, network: number, bits: number) {
    const total = 2 ** (32 - bits);
    this.base = network + (total > 2 ? 1 : 0);
    this.size = total > 2 ? total - 2 : total;
    this.staticBand = total < 16 ? 0 : Math.min(256, Math.max(16, Math.floor(total / 16)));
  }

  /** Parses a CIDR such as `10.0.0.0/24`; throws a TypeError saying what is wrong. */
  static parse(cidr: string): ServiceIPRange {
    const m = /^([^/]+)\/(\d{1,2})$/.exec(cidr);
    const ip = m ? parseIPv4(m[1]!) : undefined;
    const bits = m ? Number(m[2]) : NaN;
    if (ip === undefined || !(bits >= 0 && bits <= 32)) throw new TypeError(`invalid CIDR address: ${cidr} (kapi serves IPv4 service ranges only)`);
    // kube rejects ranges of more than 2^20 addresses for the bitmap allocator; a /12 is the widest it takes.
    if (32 - bits > 20) throw new TypeError(`specified --service-cluster-ip-range is too large; for 32-bit addresses, the mask must be >= 12`);
    const network = bits === 0 ? 0 : ((ip >>> (32 - bits)) << (32 - bits)) >>> 0;
    return new ServiceIPRange(`${formatIPv4(network)}/${bits}`, network, bits);
  }

  /** The offset of an address in the range, or undefined when it is outside. */
  offsetOf(ip: string): number | undefined {
    const n = parseIPv4(ip);
    if (n === undefined) return undefined;
    const offset = n - this.base;
    return offset >= 0 && offset < this.size ? offset : undefined;
  }

  addressAt(offset: number): string {
    return formatIPv4(this.base + offset);
  }
}
