import type { KubeObject } from '../../core/contracts/resource-type.js';

export interface EndpointAddress {
  ip?: string;
  hostname?: string;
  nodeName?: string;
  targetRef?: Record<string, string>;
}

export interface EndpointPort {
  name?: string;
  port?: number;
  protocol?: string;
  appProtocol?: string;
}

export interface EndpointSubset {
  addresses?: EndpointAddress[];
  notReadyAddresses?: EndpointAddress[];
  ports?: EndpointPort[];
}

/** A core/v1 Endpoints, as decoded into its Go type. */
export type Endpoints = KubeObject & { subsets?: EndpointSubset[] };
