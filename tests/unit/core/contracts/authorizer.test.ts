// kube's union authorizer (AuthorizationChain) with authorizers that report errors beside their decision, and its
// union of rules (unionRulesFor).
import test from 'ava';
import { AuthorizationChain, unionRulesFor, type Authorizer, type AuthorizerAnswer } from '../../../../core/contracts/authorizer.js';

const user = { username: 'u', groups: [] };
const attrs = { user, verb: 'get', isResourceRequest: false, path: '/x' };
const answering = (name: string, answer: AuthorizerAnswer): Authorizer => ({ name, authorize: async () => answer });
const throwing: Authorizer = { name: 'broken', authorize: async () => Promise.reject(new Error('broken')) };

test('a decision carries its own authorizer\'s error only; without one every error is aggregated', async (t) => {
  const failedDeny = answering('webhook', { decision: 'deny', evaluationError: 'unreachable' });
  t.deepEqual(await new AuthorizationChain(() => [throwing, failedDeny]).authorize(attrs), { decision: 'deny', reason: '', evaluationError: 'unreachable' });
  const failedNoOpinion = answering('webhook', { decision: 'no-opinion', reason: 'nope', evaluationError: 'timeout' });
  t.deepEqual(await new AuthorizationChain(() => [throwing, failedNoOpinion, failedNoOpinion]).authorize(attrs), {
    decision: 'no-opinion',
    reason: 'nope\nnope',
    evaluationError: '[broken, timeout]',
  });
  t.deepEqual(await new AuthorizationChain(() => [failedNoOpinion, answering('rbac', { decision: 'allow' })]).authorize(attrs), { decision: 'allow', reason: '' });
});

test('unionRulesFor: rules in order; an authorizer without rulesFor makes them incomplete with kube\'s text', (t) => {
  const rbac: Authorizer = { ...answering('RBAC', { decision: 'no-opinion' }), rulesFor: () => ({ rules: [{ verbs: ['get'], nonResourceURLs: ['/x'] }], incomplete: false }) };
  t.deepEqual(unionRulesFor([rbac], user, 'ns'), { rules: [{ verbs: ['get'], nonResourceURLs: ['/x'] }], incomplete: false });
  t.deepEqual(unionRulesFor([answering('webhook', { decision: 'no-opinion' }), rbac], user, 'ns'), {
    rules: [{ verbs: ['get'], nonResourceURLs: ['/x'] }],
    incomplete: true,
    evaluationError: 'webhook authorizer does not support user rule resolution',
  });
});
