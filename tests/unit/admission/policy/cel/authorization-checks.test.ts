import test from 'ava';
import { AuthorizationChecks } from '../../../../../admission/policy/cel/authorization-checks.js';
import { AuthorizationChain, type Authorizer } from '../../../../../core/contracts/authorizer.js';
import type { CelAuthorizationRequest } from '../../../../../admission/policy/cel/authorizer-library.js';

const user = { username: 'alice', groups: [] };
const check = (verb: string): CelAuthorizationRequest => ({ user, verb, resourceRequest: true, apiGroup: '', resource: 'pods' });

/** Allows `get`, denies `delete`, fails on `explode`; counts the questions. */
function chain() {
  const asked: string[] = [];
  const authorizer: Authorizer = {
    name: 'table',
    async authorize(attrs) {
      asked.push(attrs.verb);
      if (attrs.verb === 'explode') throw new Error('backend down');
      if (attrs.verb === 'delete') return { decision: 'deny', reason: 'never' };
      return attrs.verb === 'get' ? { decision: 'allow', reason: 'ok' } : { decision: 'no-opinion' };
    },
  };
  return { asked, authorization: new AuthorizationChain(() => [authorizer]) };
}

test('an evaluation that makes no check is answered at once, without a promise', (t) => {
  const checks = new AuthorizationChecks(() => chain().authorization);
  t.is(checks.settled(() => 42), 42);
});

test('checks are asked, and the evaluation run again with their answers, until a run finds every answer', async (t) => {
  const { asked, authorization } = chain();
  const checks = new AuthorizationChecks(() => authorization);
  let runs = 0;
  // The second check depends on the first answer: two rounds of asking.
  const evaluate = () => {
    runs++;
    const get = checks.authorize(check('get'));
    return get.decision === 'allow' ? checks.authorize(check('delete')) : get;
  };
  const result = checks.settled(evaluate);
  t.true(result instanceof Promise);
  t.deepEqual(await result, { decision: 'deny', reason: 'never' });
  t.is(runs, 3);
  t.deepEqual(asked, ['get', 'delete']);
  // Answers are kept for the request.
  t.deepEqual(checks.settled(evaluate), { decision: 'deny', reason: 'never' });
  t.deepEqual(asked, ['get', 'delete']);
});

test('an authorizer that fails is an errored decision with its error', async (t) => {
  const { authorization } = chain();
  const checks = new AuthorizationChecks(() => authorization);
  t.deepEqual(await checks.settled(() => checks.authorize(check('explode'))), { decision: 'no-opinion', reason: '', error: 'backend down' });
});

test('a check\'s field and label selectors reach the authorizers as requirements; one that does not parse narrows nothing', async (t) => {
  const seen: unknown[] = [];
  const authorizer: Authorizer = {
    name: 'recorder',
    async authorize(attrs) {
      seen.push([attrs.fieldSelector, attrs.labelSelector]);
      return { decision: 'no-opinion' };
    },
  };
  const checks = new AuthorizationChecks(() => new AuthorizationChain(() => [authorizer]));
  const list = (fieldSelector: string, labelSelector: string) => checks.authorize({ ...check('list'), fieldSelector, labelSelector });
  await checks.settled(() => [list('spec.nodeName=n1', 'app notin (a),x>1'), list('a=b=c', '')]);
  t.deepEqual(seen, [
    [[{ key: 'spec.nodeName', operator: 'In', values: ['n1'] }], [{ key: 'app', operator: 'NotIn', values: ['a'] }]],
    [undefined, undefined],
  ]);
});
