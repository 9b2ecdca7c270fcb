import { goTypes as t, type GoStructType } from '../../lib/go/json-decoding.js';
import { kindGoType } from '../../schemas/object-meta-go-type.js';
import { objectReferenceGoType } from '../core-v1/object-reference-go-type.js';

const endpointAddress = t.struct('v1.EndpointAddress', {
  ip: t.string(),
  hostname: t.string(),
  nodeName: t.string(),
  targetRef: objectReferenceGoType,
});

/** core/v1 Endpoints as kube's decoder sees it. */
export const endpointsGoType: GoStructType = kindGoType('v1.Endpoints', {
  subsets: t.slice(
    t.struct('v1.EndpointSubset', {
      addresses: t.slice(endpointAddress),
      notReadyAddresses: t.slice(endpointAddress),
      ports: t.slice(t.struct('v1.EndpointPort', { name: t.string(), port: t.int32, protocol: t.string('v1.Protocol'), appProtocol: t.string() })),
    }),
  ),
});
