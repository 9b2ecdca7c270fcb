import type { HealthCheck } from '../contracts/health-check.js';

/** kube's built-in `ping` check: always healthy, always first. */
export const pingCheck: HealthCheck = {
  name: 'ping',
  check: async () => {},
};
