// The typing of admission plugins, checked by the compiler: this file failing to build is the test failing. The one
// runtime test calls a typed plugin directly.
import test from 'ava';
import type { DependencyContainer } from 'tsyringe';
import { defineAdmissionPlugin, Tokens, type AdmissionAttributes, type AdmissionPlugin, type KubeObject } from '../../../../index.js';

interface Widget extends KubeObject {
  spec: { size: number; color?: string };
}
/** true only when A and B are the same type (`any` is equal to nothing else). */
type Equal<A, B> = (<X>() => X extends A ? 1 : 2) extends <X>() => X extends B ? 1 : 2 ? true : false;
const widgets = [{ apiGroups: ['example.com'], resources: ['widgets'] }];

// Literal operations and sideEffects need no `as const`; attrs, object and oldObject are typed by T.
const doubler = defineAdmissionPlugin<Widget>({
  name: 'Doubler',
  operations: ['CREATE', 'UPDATE'],
  rules: widgets,
  sideEffects: 'NoneOnDryRun',
  admit(attrs) {
    const typed: [Equal<typeof attrs, AdmissionAttributes<Widget>>, Equal<typeof attrs.object, Widget>] = [true, true];
    const old: Equal<typeof attrs.oldObject, Widget | undefined> = true;
    void [typed, old];
    attrs.object.spec.size *= 2;
    // @ts-expect-error a field Widget's spec does not have
    void attrs.object.spec.sise;
    // @ts-expect-error size is a number
    const replaced: typeof attrs.object = { spec: { size: 'large' } };
    void replaced;
  },
  validate: ({ object, oldObject }) => void (object.spec.size > (oldObject?.spec.size ?? 0)),
});

// The default T is a general KubeObject: its fields beyond metadata are unknown.
defineAdmissionPlugin({
  name: 'Any',
  operations: ['*'],
  rules: [{ apiGroups: ['*'], resources: ['*'] }],
  sideEffects: 'None',
  validate(attrs) {
    const object: Equal<typeof attrs.object, KubeObject> = true;
    void object;
    // @ts-expect-error spec is unknown
    void attrs.object.spec.size;
  },
});

defineAdmissionPlugin<Widget>({
  name: 'Misspelt',
  // @ts-expect-error not an operation
  operations: ['CREATED'],
  rules: widgets,
  // @ts-expect-error not a SideEffects value
  sideEffects: 'none',
});

// @ts-expect-error a member AdmissionPlugin does not have
defineAdmissionPlugin<Widget>({ name: 'Extra', operations: ['CREATE'], rules: widgets, sideEffects: 'None', admitt() {} });

// @ts-expect-error T is an object kind
defineAdmissionPlugin<string>({ name: 'NotAnObject', operations: ['CREATE'], rules: widgets, sideEffects: 'None' });

// A typed plugin is registered where any plugin is (its rules vouch for T).
const general: AdmissionPlugin = doubler;
export const register = (c: DependencyContainer) => c.register(Tokens.AdmissionPlugin, { useValue: general });

test('a plugin made with defineAdmissionPlugin is the plugin given, typed methods included', (t) => {
  const object: Widget = { metadata: { name: 'w1' }, spec: { size: 2 } };
  void doubler.admit!({ object } as AdmissionAttributes<Widget>);
  t.is(object.spec.size, 4);
});
