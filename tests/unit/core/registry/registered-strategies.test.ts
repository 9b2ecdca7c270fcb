// The registry composes the strategies registered by group/kind after a type's own as the type is set.
import test from 'ava';
import { ResourceTypeRegistry } from '../../../../core/registry/resource-registry.js';
import { defineStrategy, fieldErrors, type KubeObject, type ResourceType, type StrategyRegistration } from '../../../../index.js';
import { widgetsType } from '../../../helpers/resource-types.js';

/** Widgets whose own strategy records its calls in `calls` and adds a finalizer. */
function widgets(calls: string[]): ResourceType {
  return {
    ...widgetsType({ type: 'object' }),
    strategy: {
      prepareForCreate: () => void calls.push('own prepare'),
      validate: () => [fieldErrors.required('spec.own')],
      defaultFinalizers: ['example.com/own'],
    },
  };
}

function registered(calls: string[], label: string, extra: Partial<StrategyRegistration> = {}): StrategyRegistration {
  return defineStrategy({
    group: 'example.com',
    kind: 'Widget',
    prepareForCreate: () => void calls.push(`${label} prepare`),
    canonicalize: () => void calls.push(`${label} canonicalize`),
    validate: () => [fieldErrors.required(`spec.${label}`)],
    ...extra,
  });
}

test("a type's own hooks run first, then each registration's in order; validate causes and finalizers add up", (t) => {
  const calls: string[] = [];
  const registry = new ResourceTypeRegistry();
  registry.useStrategies([registered(calls, 'first', { defaultFinalizers: ['example.com/first', 'example.com/own'] }), registered(calls, 'second')]);
  const own = widgets(calls);
  registry.set(own);
  const strategy = registry.get('example.com', 'widgets')!.strategy!;
  const obj: KubeObject = { metadata: { name: 'w' } };
  strategy.prepareForCreate!(obj);
  strategy.canonicalize!(obj);
  t.deepEqual(calls, ['own prepare', 'first prepare', 'second prepare', 'first canonicalize', 'second canonicalize']);
  t.deepEqual(strategy.validate!(obj, undefined, '').map((c) => c.field), ['spec.own', 'spec.first', 'spec.second']);
  t.deepEqual(strategy.defaultFinalizers, ['example.com/own', 'example.com/first']);
  t.is(strategy.prepareForUpdate, undefined, 'a hook no strategy has stays absent');
  t.deepEqual(Object.keys(own.strategy!), ['prepareForCreate', 'validate', 'defaultFinalizers'], 'the type given is left as it is');
});

test('registrations apply to their group/kind only; a type without any keeps its own strategy object', (t) => {
  const registry = new ResourceTypeRegistry();
  registry.useStrategies([defineStrategy({ group: 'other.example.com', kind: 'Widget', validate: () => [] })]);
  const own = widgets([]);
  registry.set(own);
  t.is(registry.get('example.com', 'widgets'), own);
});

test('a registration without a kind is refused with a message that says how to write one', (t) => {
  const registry = new ResourceTypeRegistry();
  const err = t.throws(() => registry.useStrategies([{ group: 'example.com' } as StrategyRegistration]));
  t.regex(err!.message, /names its group \(''.*\) and kind: defineStrategy\(\{ group, kind/);
});
