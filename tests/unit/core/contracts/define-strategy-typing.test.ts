// The typing of strategies registered by group/kind, checked by the compiler: this file failing to build is the test
// failing. The one runtime test calls a typed hook directly.
import test from 'ava';
import type { DependencyContainer } from 'tsyringe';
import { defineStrategy, Tokens, type KubeObject, type StrategyRegistration } from '../../../../index.js';

interface Widget extends KubeObject {
  spec: { color: string };
}
/** true only when A and B are the same type (`any` is equal to nothing else). */
type Equal<A, B> = (<X>() => X extends A ? 1 : 2) extends <X>() => X extends B ? 1 : 2 ? true : false;

const lowerCase = defineStrategy<Widget>({
  group: 'example.com',
  kind: 'Widget',
  canonicalize(w) {
    const typed: Equal<typeof w, Widget> = true;
    void typed;
    w.spec.color = w.spec.color.toLowerCase();
    // @ts-expect-error a field Widget's spec does not have
    void w.spec.colour;
  },
  validate(w, old) {
    const typed: Equal<typeof old, Widget | undefined> = true;
    void typed;
    return w.spec.color === old?.spec.color ? [] : [];
  },
});

// @ts-expect-error the kind is required
defineStrategy<Widget>({ group: 'example.com' });

// @ts-expect-error a hook ResourceStrategy does not have
defineStrategy<Widget>({ group: 'example.com', kind: 'Widget', canonicalise() {} });

// A typed registration is registered where any is (its group/kind vouch for T).
const general: StrategyRegistration = lowerCase;
export const register = (c: DependencyContainer) => c.register(Tokens.Strategy, { useValue: general });

test('a strategy made with defineStrategy is the strategy given, typed hooks included', (t) => {
  const w: Widget = { spec: { color: 'RED' } };
  lowerCase.canonicalize!(w);
  t.is(w.spec.color, 'red');
});
