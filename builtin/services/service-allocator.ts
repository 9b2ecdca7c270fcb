import type { DependencyContainer } from 'tsyringe';
import type { Controller } from '../../core/contracts/controller.js';
import type { InformerEvent } from '../../core/contracts/informer.js';
import type { KubeObject, WriteSettlement } from '../../core/contracts/resource-type.js';
import { errors, fieldErrors, type StatusCause } from '../../core/contracts/api-error.js';
import { Tokens } from '../../core/contracts/tokens.js';
import type { NodePortRange } from './node-port-range.js';
import type { ServiceIPRange } from './service-ip-range.js';
import { SlotPool, type Reservation } from './slot-pool.js';
import { clusterIPsRelatedCauses } from './service-validation.js';
import { initIPFamilyFields } from './service-ip-families.js';
import { keepAllocatedValues } from './service-defaults.js';
import { clusterIPNone, isHeadless, needsHealthCheck, needsNodePorts, type Service, type ServiceSpec } from './service-types.js';
import { serviceResource, serviceResourceRef } from './service-resource.js';

/** What a stored Service holds: its cluster IP's offset and its node ports' offsets. */
interface Claims {
  ips: number[];
  ports: number[];
}

/**
 * Hands out cluster IPs (`--service-cluster-ip-range`) and node ports (`--service-node-port-range`) to Services, as
 * kube's allocators do, without state of its own: what is taken is what the stored Services hold (followed through
 * the services informer, so a restart finds it again and a deleted Service gives its values back), plus what writes
 * in flight reserved. A write keeps its reservation until it fails, or until the informer has caught up with what it
 * stored. A value a client asks for that the informer still shows as another Service's is checked against storage
 * (that Service may be gone already).
 *
 * One kapi process hands out values safely; several kapi processes on one storage could hand out the same value at
 * the same moment (kube keeps a shared allocation object for that; kapi does not).
 */
export class ServiceAllocator implements Controller {
  readonly name = 'service-allocator';
  readonly resources = [serviceResourceRef];
  private readonly ips: SlotPool;
  private readonly ports: SlotPool;
  private readonly stored = new Map<string, Claims>();
  private readonly awaiting = new Set<Reservation>();
  /** The newest revision the informer reported: writes up to it are in `stored`. */
  private seen = 0n;
  private started?: Promise<void>;
  private unsubscribe?: () => void;

  constructor(
    private readonly container: DependencyContainer,
    readonly ipRange: ServiceIPRange,
    readonly portRange: NodePortRange,
    random?: () => number,
  ) {
    this.ips = new SlotPool(ipRange.size, ipRange.staticBand, random);
    this.ports = new SlotPool(portRange.size, portRange.staticBand, random);
  }

  start(): Promise<void> {
    this.started ??= this.follow();
    return this.started;
  }

  async stop(): Promise<void> {
    this.unsubscribe?.();
  }

  private async follow(): Promise<void> {
    const informer = this.container.resolve(Tokens.Informers).forResource(serviceResource());
    this.unsubscribe = informer.subscribe((events) => this.apply(events));
    await informer.synced();
    for (const [key, svc] of informer.current()) this.record(key, svc);
  }

  private apply(events: InformerEvent[]): void {
    for (const e of events) {
      const key = keyOf(e.object);
      if (e.type === 'DELETED') this.record(key, undefined);
      else this.record(key, e.object);
      const rv = e.object.metadata?.resourceVersion;
      if (rv && /^\d+$/.test(rv) && BigInt(rv) > this.seen) this.seen = BigInt(rv);
    }
    for (const r of this.awaiting) if (r.storedAt! <= this.seen) this.release(r);
  }

  /** Replaces what `key` holds by what `svc` (undefined: deleted) holds. */
  private record(key: string, svc: KubeObject | undefined): void {
    const before = this.stored.get(key);
    for (const slot of before?.ips ?? []) this.ips.drop(slot, key);
    for (const slot of before?.ports ?? []) this.ports.drop(slot, key);
    const claims = svc ? this.claimsOf((svc as Service).spec ?? {}) : undefined;
    if (!claims) {
      this.stored.delete(key);
      return;
    }
    this.stored.set(key, claims);
    for (const slot of claims.ips) this.ips.hold(slot, key);
    for (const slot of claims.ports) this.ports.hold(slot, key);
  }

  private claimsOf(spec: ServiceSpec): Claims {
    const ips = spec.type === 'ExternalName' ? [] : (spec.clusterIPs ?? []).map((ip) => this.ipRange.offsetOf(ip));
    const ports = [...(spec.ports ?? []).map((p) => p.nodePort ?? 0), spec.healthCheckNodePort ?? 0].filter((p) => p > 0).map((p) => this.portRange.offsetOf(p));
    return { ips: ips.filter((o): o is number => o !== undefined), ports: ports.filter((o): o is number => o !== undefined) };
  }

  /**
   * kube's BeginCreate/BeginUpdate for Services: IP family fields, the values an update left out, then a cluster IP and
   * node ports where the type needs them — the ones asked for when free and in range, else free ones.
   */
  async beginWrite(svc: Service, old: Service | undefined, options: { dryRun: boolean }): Promise<WriteSettlement | undefined> {
    await this.start();
    const spec = (svc.spec ??= {});
    const was = old?.spec;
    const invalid = (causes: StatusCause[]) => errors.invalid({ group: '', resource: 'services', kind: 'Service', name: svc.metadata?.name ?? '' }, causes);
    if (was) keepAllocatedValues(spec, was);
    const relatedCauses = clusterIPsRelatedCauses(spec);
    if (relatedCauses.length) throw invalid(relatedCauses);
    const familyCauses = initIPFamilyFields(spec, was);
    if (familyCauses.length) throw invalid(familyCauses);

    const reservation: Reservation = { slots: [] };
    try {
      await this.takeClusterIP(spec, was, reservation, options.dryRun, invalid);
      await this.takeNodePorts(spec, was, reservation, options.dryRun, invalid);
    } catch (err) {
      this.release(reservation);
      throw err;
    }
    if (!reservation.slots.length) return undefined;
    return (stored) => this.settle(reservation, stored);
  }

  private settle(reservation: Reservation, stored: KubeObject | undefined): void {
    const rv = stored?.metadata?.resourceVersion;
    if (!stored || !rv || !/^\d+$/.test(rv) || BigInt(rv) <= this.seen) {
      this.release(reservation);
      return;
    }
    reservation.storedAt = BigInt(rv);
    this.awaiting.add(reservation);
  }

  private release(reservation: Reservation): void {
    for (const { pool, slot } of reservation.slots) pool.unreserve(slot, reservation);
    reservation.slots.length = 0;
    this.awaiting.delete(reservation);
  }

  private async takeClusterIP(spec: ServiceSpec, was: ServiceSpec | undefined, reservation: Reservation, dryRun: boolean, invalid: (c: StatusCause[]) => Error): Promise<void> {
    if (spec.type === 'ExternalName' || isHeadless(spec)) return;
    // An update keeps the IP it has (validation refuses a change); only a Service that had none gets one.
    if (was && was.type !== 'ExternalName') return;
    const requested = spec.clusterIPs?.[0] ?? spec.clusterIP;
    if (requested && requested !== clusterIPNone) {
      const offset = this.ipRange.offsetOf(requested);
      const failed = (why: string) => invalid([fieldErrors.invalid('spec.clusterIPs', spec.clusterIPs ?? [requested], `failed to allocate IP ${requested}: ${why}`)]);
      if (offset === undefined) throw failed(`provided IP ${requested} is not in the valid range`);
      if (!(await this.isFree(this.ips, offset))) throw failed('provided IP is already allocated');
      if (!dryRun) this.ips.reserve(offset, reservation);
      spec.clusterIP = requested;
      spec.clusterIPs = [requested];
      return;
    }
    const offset = this.ips.pickFree();
    if (offset === undefined) throw errors.internal('failed to allocate a serviceIP: range is full');
    if (!dryRun) this.ips.reserve(offset, reservation);
    spec.clusterIP = this.ipRange.addressAt(offset);
    spec.clusterIPs = [spec.clusterIP];
  }

  private async takeNodePorts(spec: ServiceSpec, was: ServiceSpec | undefined, reservation: Reservation, dryRun: boolean, invalid: (c: StatusCause[]) => Error): Promise<void> {
    // what the stored Service holds already needs no taking
    const held = new Set(was ? [...(needsNodePorts(was) ? (was.ports ?? []).map((p) => p.nodePort) : []), was.healthCheckNodePort] : []);
    const picked = new Set<number>();
    const take = async (port: number, refused: (why: string) => Error): Promise<void> => {
      const offset = this.portRange.offsetOf(port);
      if (held.has(port) || (offset !== undefined && picked.has(offset))) return;
      if (offset === undefined) throw refused(`provided port is not in the valid range. The range of valid ports is ${this.portRange}`);
      if (!(await this.isFree(this.ports, offset))) throw refused('provided port is already allocated');
      if (!dryRun) this.ports.reserve(offset, reservation);
      picked.add(offset);
    };
    const next = (what: string): number => {
      const offset = this.ports.pickFree(picked);
      if (offset === undefined) throw errors.internal(`failed to allocate ${what}: range is full`);
      if (!dryRun) this.ports.reserve(offset, reservation);
      picked.add(offset);
      return this.portRange.base + offset;
    };

    if (needsNodePorts(spec)) {
      // ports of one number (TCP and UDP 53) share their node port
      const byPort = new Map<number, number>();
      const allocate = spec.type === 'NodePort' || spec.allocateLoadBalancerNodePorts !== false;
      for (const [i, port] of (spec.ports ?? []).entries()) {
        if (!port.nodePort && !allocate) continue;
        const requested = port.nodePort;
        if (requested) await take(requested, (why) => invalid([fieldErrors.invalid(`spec.ports[${i}].nodePort`, requested, why)]));
        else port.nodePort = byPort.get(port.port ?? 0) ?? next('a nodePort');
        byPort.set(port.port ?? 0, port.nodePort!);
      }
    }
    if (needsHealthCheck(spec)) {
      const requested = spec.healthCheckNodePort ?? 0;
      if (requested) await take(requested, (why) => errors.internal(`failed to allocate requested HealthCheck NodePort ${requested}: ${why}`));
      else spec.healthCheckNodePort = next('a HealthCheck NodePort');
    }
  }

  /**
   * Whether a slot asked for by value is free: not reserved, and not held by a stored Service — one the informer
   * still shows holding it is looked up in storage first (it may just have been deleted or changed).
   */
  private async isFree(pool: SlotPool, slot: number): Promise<boolean> {
    const holder = pool.holder(slot);
    if (holder !== undefined && !pool.isReserved(slot)) {
      const [namespace, name] = holder.split('/') as [string, string];
      const current = await this.container.resolve(Tokens.Objects).forResource<Service>(serviceResourceRef).get(namespace, name);
      const claims = current ? this.claimsOf(current.spec ?? {}) : undefined;
      if (claims && (pool === this.ports ? claims.ports : claims.ips).includes(slot)) return false;
    }
    // re-checked after the lookup: another write may have reserved the slot meanwhile
    return !pool.isReserved(slot) && (pool.holder(slot) === undefined || pool.holder(slot) === holder);
  }
}

function keyOf(obj: KubeObject): string {
  return `${obj.metadata?.namespace ?? ''}/${obj.metadata?.name ?? ''}`;
}
