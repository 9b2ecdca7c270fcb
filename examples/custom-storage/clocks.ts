/**
 * `clocks.example.com`: a read-only, computed, cluster-scoped resource. Its one object, `now`, reports the server's
 * time and uptime when read; a watch sees it change every second. Nothing is stored.
 */
import { errors, resourceModule, type KubeObject, type RestContext, type RestStorage } from '../../index.js';

export interface Clock extends KubeObject {
  status: { time: string; uptimeSeconds: number };
}

const started = new Date();
const startedAt = started.toISOString().replace(/\.\d+Z$/, 'Z');

/** The clock as of now; its resourceVersion is the second since the server started. */
function clock(): Clock {
  const uptimeSeconds = Math.floor((Date.now() - started.getTime()) / 1000);
  return {
    apiVersion: 'example.com/v1',
    kind: 'Clock',
    metadata: {
      name: 'now',
      uid: '8a3f2f0e-1d1c-4a43-9d8e-6c1b7f3c0a01',
      resourceVersion: String(uptimeSeconds + 1),
      creationTimestamp: startedAt,
      labels: { 'example.com/source': 'computed' },
    },
    status: { time: new Date().toISOString().replace(/\.\d+Z$/, 'Z'), uptimeSeconds },
  };
}

const clockStorage: RestStorage<Clock> = {
  async get(_ctx, name) {
    if (name !== 'now') throw errors.notFound({ group: 'example.com', resource: 'clocks', name });
    return clock();
  },
  // The selectors are left to kapi (selectorsApplied is not set).
  async list() {
    const now = clock();
    return { items: [now], resourceVersion: now.metadata!.resourceVersion };
  },
  async *watch(ctx: RestContext) {
    while (!ctx.signal.aborted) {
      await new Promise((resolve) => setTimeout(resolve, 1000).unref());
      if (!ctx.signal.aborted) yield { type: 'MODIFIED' as const, object: clock() };
    }
  },
};

/** `clocks/<name>/summary`: the clock in words, a kind of its own. */
const summaryStorage: RestStorage = {
  kind: { group: 'example.com', version: 'v1', kind: 'ClockSummary' },
  // Published in OpenAPI v2 and v3 as the definition of ClockSummary (the resource's schema describes only Clock).
  schema: {
    type: 'object',
    description: "The server's clock in words.",
    properties: { summary: { type: 'string', description: 'The uptime and the time the server started, e.g. "up 1h2m3s since 2026-01-01T00:00:00Z".' } },
  },
  async get(ctx, name) {
    const now = await clockStorage.get!(ctx, name);
    const s = now.status.uptimeSeconds;
    return {
      apiVersion: 'example.com/v1',
      kind: 'ClockSummary',
      metadata: { name },
      summary: `up ${Math.floor(s / 3600)}h${Math.floor((s % 3600) / 60)}m${s % 60}s since ${startedAt}`,
    };
  },
};

export const clocks = resourceModule({
  group: 'example.com',
  versions: ['v1'],
  kind: 'Clock',
  plural: 'clocks',
  shortNames: ['clk'],
  scope: 'Cluster',
  schema: {
    type: 'object',
    description: "The server's clock, computed when read.",
    properties: {
      status: {
        type: 'object',
        properties: {
          time: { type: 'string', format: 'date-time', description: 'The server time when the clock was read.' },
          uptimeSeconds: { type: 'integer', description: 'Seconds since the server started.' },
        },
      },
    },
  },
  printerColumns: [
    { name: 'Time', type: 'string', jsonPath: '.status.time' },
    { name: 'Uptime', type: 'integer', jsonPath: '.status.uptimeSeconds' },
  ],
  storage: clockStorage,
  subresources: { summary: summaryStorage },
});
