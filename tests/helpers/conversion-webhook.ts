/**
 * Conversion webhooks for tests, on the shared HTTPS test webhook server (tests/helpers/webhook-server.ts): a CRD whose
 * versions v1 (storage) and v2 name one field differently (`spec.color` / `spec.colour`), a webhook that converts
 * between them as a real one would, and ConversionReview answers to program misbehaviour with.
 */
import type { WebhookClientConfig } from '../../lib/webhook/webhook-client-config.js';
import type { WebhookHandler, WebhookReply } from './webhook-server.js';

export const gadgetsGroup = 'convert.example.com';

/**
 * gadgets.GROUP (default convert.example.com): v1 (storage) has spec.color, v2 spec.colour (both default spec.size
 * to 1); each version prints its colour field. Converted through the webhook at `clientConfig`.
 */
export function gadgetsCrd(clientConfig: WebhookClientConfig, opts: { group?: string; reviewVersions?: string[] } = {}): any {
  const group = opts.group ?? gadgetsGroup;
  const version = (name: string, colorField: string, storage: boolean) => ({
    name,
    served: true,
    storage,
    schema: {
      openAPIV3Schema: {
        type: 'object',
        properties: {
          spec: { type: 'object', properties: { [colorField]: { type: 'string' }, size: { type: 'integer', default: 1 } } },
          status: { type: 'object', properties: { ready: { type: 'boolean' } } },
        },
      },
    },
    subresources: { status: {} },
    additionalPrinterColumns: [{ name: colorField === 'color' ? 'Color' : 'Colour', type: 'string', jsonPath: `.spec.${colorField}` }],
  });
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `gadgets.${group}` },
    spec: {
      group,
      names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget', listKind: 'GadgetList' },
      scope: 'Namespaced',
      versions: [version('v1', 'color', true), version('v2', 'colour', false)],
      conversion: { strategy: 'Webhook', webhook: { conversionReviewVersions: opts.reviewVersions ?? ['v1'], clientConfig } },
    },
  };
}

/** /apis/GROUP/VERSION/namespaces/NS/gadgets[/NAME] */
export function gadgetsPath(version: string, namespace: string, name?: string, group = gadgetsGroup): string {
  return `/apis/${group}/${version}/namespaces/${namespace}/gadgets${name ? `/${name}` : ''}`;
}

/** A Gadget in `version`, with its colour in that version's field. */
export function gadget(version: 'v1' | 'v2', name: string, colour: string, group = gadgetsGroup): any {
  return {
    apiVersion: `${group}/${version}`,
    kind: 'Gadget',
    metadata: { name },
    spec: version === 'v1' ? { color: colour } : { colour },
  };
}

/** One object converted as the test webhook converts it: the colour field renamed, the apiVersion set. */
export function convertGadget(obj: any, desiredAPIVersion: string): any {
  const out = structuredClone(obj);
  const spec = out.spec ?? {};
  if (desiredAPIVersion.endsWith('/v2') && 'color' in spec) {
    spec.colour = spec.color;
    delete spec.color;
  } else if (desiredAPIVersion.endsWith('/v1') && 'colour' in spec) {
    spec.color = spec.colour;
    delete spec.colour;
  }
  out.apiVersion = desiredAPIVersion;
  return out;
}

/** A ConversionReview answer to `review` (same apiVersion and uid) with these converted objects and result. */
export function reviewAnswer(review: any, convertedObjects: unknown[], result: Record<string, unknown> = { status: 'Success' }): WebhookReply {
  return {
    json: {
      apiVersion: review?.apiVersion ?? 'apiextensions.k8s.io/v1',
      kind: 'ConversionReview',
      response: { uid: review?.request?.uid, convertedObjects, result },
    },
  };
}

/** The webhook a correct converter is: every object converted, with `edit` applied to each converted object. */
export function gadgetConverter(edit: (converted: any) => void = () => {}): WebhookHandler {
  return (review) => {
    const desired: string = review.request.desiredAPIVersion;
    return reviewAnswer(
      review,
      review.request.objects.map((o: unknown) => {
        const converted = convertGadget(o, desired);
        edit(converted);
        return converted;
      }),
    );
  };
}
