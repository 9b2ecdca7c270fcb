import test from 'ava';
import { typeCheckMutations } from '../../../../../admission/policy/mutation/mutation-type-check.js';
import { compileMutation, type Mutation } from '../../../../../admission/policy/mutation/compiled-mutation.js';
import { CompositionEnv } from '../../../../../admission/policy/cel/composition-env.js';
import type { JSONSchemaProps } from '../../../../../lib/openapi/json-schema-props.js';

const schema: JSONSchemaProps = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        replicas: { type: 'integer' },
        ports: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' }, port: { type: 'integer' } } } },
        settings: { type: 'object', additionalProperties: { type: 'string' } },
        extra: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
      },
    },
  },
};

const apply = (expression: string): Mutation => ({ patchType: 'ApplyConfiguration', applyConfiguration: { expression } });
const check = (m: Mutation) => typeCheckMutations([m], schema, { hasParams: false, variables: [] })[0];

test('constructions that follow the schema type-check', (t) => {
  t.is(
    check(
      apply(
        'Object{metadata: Object.metadata{labels: {"a": "b"}}, spec: Object.spec{replicas: 2, ports: [Object.spec.ports{name: "http", port: 80}], settings: {"k": "v"}, extra: Object.spec.extra{anything: [1]}}}',
      ),
    ),
    undefined,
  );
  t.is(check({ patchType: 'JSONPatch', jsonPatch: { expression: '[JSONPatch{op: "add", path: "/spec/ports/-", value: Object.spec.ports{port: 1}}]' } }), undefined);
});

test("fields the schema does not declare are cel-go's undefined field errors", (t) => {
  t.is(
    check(apply('Object{spec: Object.spec{replica: 2}}')),
    "ERROR: <input>:1:33: undefined field 'replica'\n | Object{spec: Object.spec{replica: 2}}\n | ................................^",
  );
  t.is(
    check(apply('Object{metadata: Object.metadata{label: {"a": "b"}}}')),
    "ERROR: <input>:1:39: undefined field 'label'\n | Object{metadata: Object.metadata{label: {\"a\": \"b\"}}}\n | ......................................^",
  );
});

test('types of the wrong kind and paths naming no object are errors', (t) => {
  t.is(
    check(apply('Object{spec: Object.spec{replicas: "2"}}')),
    "ERROR: <input>:1:34: expected type of field 'replicas' is 'int' but provided type is 'string'\n | Object{spec: Object.spec{replicas: \"2\"}}\n | .................................^",
  );
  t.is(
    check(apply('Object{spec: Object.spec{replicas: Object.spec.replicas{}}}')),
    "ERROR: <input>:1:56: undeclared reference to 'Object.spec.replicas' (in container '')\n | Object{spec: Object.spec{replicas: Object.spec.replicas{}}}\n | .......................................................^",
  );
});

test("each mutation is checked in order, after the policy's variables, typed by what they construct", (t) => {
  const variables = [{ name: 'spec', expression: 'Object.spec{replicas: 2}' }];
  const problems = typeCheckMutations(
    [apply('Object{spec: variables.spec}'), apply('Object{spec: Object.spec{colour: "red"}}'), { patchType: 'JSONPatch', jsonPatch: { expression: '[JSONPatch{op: "add", path: "/spec", value: variables.spec}]' } }],
    schema,
    { hasParams: false, variables },
  );
  t.deepEqual(problems, [
    undefined,
    "ERROR: <input>:1:32: undefined field 'colour'\n | Object{spec: Object.spec{colour: \"red\"}}\n | ...............................^",
    undefined,
  ]);
  // a variable that does not type-check is dyn to the mutations (its own error is not theirs)
  t.deepEqual(typeCheckMutations([apply('Object{spec: variables.spec}')], schema, { hasParams: false, variables: [{ name: 'spec', expression: 'Object.spec{replica: 2}' }] }), [undefined]);
});

test('the same mutations compile without a schema, as kube compiles them', (t) => {
  t.is(compileMutation(apply('Object{spec: Object.spec{replica: "2"}}'), new CompositionEnv(false))?.compiled.error, undefined);
});
