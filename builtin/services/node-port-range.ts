/** kube-apiserver's default `--service-node-port-range`. */
export const defaultServiceNodePortRange = '30000-32767';

/** The ports NodePort and LoadBalancer Services get node ports from (`--service-node-port-range`), both ends included. */
export class NodePortRange {
  readonly size: number;
  /** Dynamic allocation prefers ports from here on (KEP-3668; kube's offset: size/32, between 16 and 128). */
  readonly staticBand: number;

  private constructor(
    readonly base: number,
    last: number,
  ) {
    this.size = last - base + 1;
    this.staticBand = this.size < 16 ? 0 : Math.min(128, Math.max(16, Math.floor(this.size / 32)));
  }

  /** Parses `30000-32767` or a single port, as kube's utilnet.PortRange; throws a TypeError saying what is wrong. */
  static parse(text: string): NodePortRange {
    const m = /^(\d{1,5})(?:-(\d{1,5}))?$/.exec(text.trim());
    const first = m ? Number(m[1]) : NaN;
    const last = m?.[2] !== undefined ? Number(m[2]) : first;
    if (!m || first > 65535 || last > 65535 || last < first) throw new TypeError(`invalid port range "${text}": must be "N-M" with 0 <= N <= M <= 65535`);
    return new NodePortRange(first, last);
  }

  /** As kube prints the range in its errors: `30000-32767`. */
  toString(): string {
    return `${this.base}-${this.base + this.size - 1}`;
  }

  offsetOf(port: number): number | undefined {
    const offset = port - this.base;
    return offset >= 0 && offset < this.size ? offset : undefined;
  }
}
