import type { DependencyContainer } from 'tsyringe';
import { Tokens } from '../../contracts/tokens.js';
import type { ServerConfig } from '../../contracts/server-config.js';
import type { ResourceRegistry } from '../../contracts/resource-registry.js';
import type { RequestInfo } from '../../request/request-info.js';
import type { WatchCaches } from '../../watch/watch-caches.js';
import { MaxInFlightLimiter } from './max-in-flight.js';
import { PriorityAndFairness } from './priority-and-fairness.js';
import type { RequestLimiter } from './request-limiter.js';
import type { ResourceLoad } from './work-estimator.js';

/**
 * The server's request limiter: priority and fairness when it is enabled and a module serves its configuration (the
 * flowcontrol module) and its kinds are served (`--runtime-config` may switch them off), once that configuration is
 * known; else kube's max-in-flight filter.
 */
export async function createRequestLimiter(container: DependencyContainer, config: ServerConfig, registry: ResourceRegistry, caches: WatchCaches): Promise<RequestLimiter> {
  const served = registry.get('flowcontrol.apiserver.k8s.io', 'flowschemas') && registry.get('flowcontrol.apiserver.k8s.io', 'prioritylevelconfigurations');
  if (!config.enablePriorityAndFairness || !served || !container.isRegistered(Tokens.FlowControlConfiguration, true)) {
    return new MaxInFlightLimiter(config.maxRequestsInflight, config.maxMutatingRequestsInflight);
  }
  const configuration = container.resolve(Tokens.FlowControlConfiguration);
  await configuration.synced();
  const load = (info: RequestInfo): ResourceLoad => {
    const rt = registry.lookup(info.apiGroup, info.apiVersion, info.resource);
    if (!rt) return { objects: 0, watchers: 0 }; // a 404 costs nothing to speak of
    const cache = caches.servedCache(rt);
    return { objects: cache?.isReady ? cache.objectCount : undefined, watchers: cache?.watcherCount ?? 0 };
  };
  return new PriorityAndFairness(configuration, config.maxRequestsInflight + config.maxMutatingRequestsInflight, load);
}
