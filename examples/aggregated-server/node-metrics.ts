/**
 * `nodemetrics.metrics.example.com`: a read-only, computed, cluster-scoped resource in the shape of metrics-server's
 * NodeMetrics. Its one object is this machine (named for its host name): CPU and memory in use, measured when read.
 * Nothing is stored.
 */
import os from 'node:os';
import { errors, resourceModule, type KubeObject, type RestStorage } from '../../index.js';

export interface NodeMetrics extends KubeObject {
  timestamp: string;
  window: string;
  usage: { cpu: string; memory: string };
}

const group = 'metrics.example.com';
const nodeName = os.hostname().toLowerCase();
const started = new Date().toISOString().replace(/\.\d+Z$/, 'Z');

/** The machine's usage now: CPU as the 1-minute load average in millicores, memory in use in Ki (kube's quantities). */
function nodeMetrics(): NodeMetrics {
  const now = new Date();
  return {
    apiVersion: `${group}/v1`,
    kind: 'NodeMetrics',
    // every read is a new measurement: its resourceVersion is the time it was taken
    metadata: { name: nodeName, creationTimestamp: started, resourceVersion: String(now.getTime()) },
    timestamp: now.toISOString().replace(/\.\d+Z$/, 'Z'),
    window: '1m0s',
    usage: { cpu: `${Math.round(os.loadavg()[0]! * 1000)}m`, memory: `${Math.round((os.totalmem() - os.freemem()) / 1024)}Ki` },
  };
}

const storage: RestStorage<NodeMetrics> = {
  async get(_ctx, name) {
    if (name !== nodeName) throw errors.notFound({ group, resource: 'nodemetrics', name });
    return nodeMetrics();
  },
  // The selectors are left to kapi (selectorsApplied is not set).
  async list() {
    const node = nodeMetrics();
    return { items: [node], resourceVersion: node.metadata!.resourceVersion };
  },
};

export const nodeMetricsResource = resourceModule({
  group,
  versions: ['v1'],
  kind: 'NodeMetrics',
  plural: 'nodemetrics',
  scope: 'Cluster',
  schema: {
    type: 'object',
    description: "This machine's resource usage, measured when read.",
    properties: {
      timestamp: { type: 'string', format: 'date-time', description: 'When the usage was measured.' },
      window: { type: 'string', description: 'The interval the usage is averaged over.' },
      usage: {
        type: 'object',
        properties: {
          cpu: { type: 'string', description: 'CPU in use (the 1-minute load average), in cores.' },
          memory: { type: 'string', description: 'Memory in use, in bytes.' },
        },
      },
    },
  },
  printerColumns: [
    { name: 'CPU', type: 'string', jsonPath: '.usage.cpu' },
    { name: 'Memory', type: 'string', jsonPath: '.usage.memory' },
    { name: 'Window', type: 'string', jsonPath: '.window' },
  ],
  storage,
});
