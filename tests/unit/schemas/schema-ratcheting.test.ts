import test from 'ava';
import { compileSchema } from '../../../schemas/structural-schema.js';
import { ratchet } from '../../../schemas/ratcheting.js';
import type { JSONSchemaProps } from '../../../lib/openapi/json-schema-props.js';

const schema: JSONSchemaProps = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        replicas: { type: 'integer', minimum: 1 },
        color: { type: 'string', enum: ['red', 'blue'] },
        items: { type: 'array', items: { type: 'object', properties: { name: { type: 'string', maxLength: 3 } } } },
      },
    },
  },
};
const validate = (obj: unknown) => compileSchema(schema).validate(obj);

test('an error on a value the update left alone is ratcheted away', (t) => {
  const old = { spec: { replicas: 0, color: 'red' } };
  const updated = { spec: { replicas: 0, color: 'blue' } };
  t.is(validate(updated).length, 1);
  t.deepEqual(ratchet(validate(updated), updated, old), []);
});

test('an error on a changed value is still reported', (t) => {
  const old = { spec: { replicas: 0, color: 'red' } };
  const updated = { spec: { replicas: 0, color: 'green' } };
  t.deepEqual(
    ratchet(validate(updated), updated, old).map((c) => c.field),
    ['spec.color'],
  );
});

test('list items are compared by their path', (t) => {
  const old = { spec: { items: [{ name: 'toolong' }, { name: 'ok' }] } };
  const updated = { spec: { items: [{ name: 'toolong' }, { name: 'long' }] } };
  t.deepEqual(
    ratchet(validate(updated), updated, old).map((c) => c.field),
    ['spec.items[1].name'],
  );
});
