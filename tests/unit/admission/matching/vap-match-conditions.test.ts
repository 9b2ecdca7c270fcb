import test from 'ava';
import { compileMatchConditions } from '../../../../admission/matching/match-conditions.js';
import { admissionRequest } from '../../../../admission/admission-request.js';
import type { AdmissionAttributes } from '../../../../core/contracts/admission-attributes.js';
import { widgetAttributes } from '../../../helpers/admission-attributes.js';
import type { CelAuthorizationRequest, CelAuthorizer } from '../../../../admission/policy/cel/authorizer-library.js';

/** Allows what is not a `delete`, remembering what it was asked. */
const asked: CelAuthorizationRequest[] = [];
const authorizer: CelAuthorizer = {
  authorize(req) {
    asked.push(req);
    return req.verb === 'delete' ? { decision: 'deny', reason: 'no deletes' } : { decision: 'allow', reason: 'ok' };
  },
};

function request(over: Partial<AdmissionAttributes> = {}) {
  const object = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w', namespace: 'ns', labels: { tier: 'web' } }, spec: { size: 3 } };
  return admissionRequest(widgetAttributes({ object, ...over }));
}

test('all conditions true: matches', (t) => {
  const m = compileMatchConditions([
    { name: 'a', expression: "object.metadata.labels.tier == 'web'" },
    { name: 'b', expression: "request.userInfo.username == 'alice' && request.operation == 'CREATE'" },
    { name: 'c', expression: 'oldObject == null && object.spec.size > 2' },
  ]);
  t.deepEqual(m.evaluate(request(), authorizer), { matches: true });
});

test('a false condition names itself, even when another errors', (t) => {
  const m = compileMatchConditions([
    { name: 'broken', expression: 'object.spec.missing == 1' },
    { name: 'small', expression: 'object.spec.size < 2' },
  ]);
  t.deepEqual(m.evaluate(request(), authorizer), { matches: false, failedCondition: 'small' });
});

test('errors without a false condition are an error with kube texts', (t) => {
  const one = compileMatchConditions([{ name: 'broken', expression: 'object.spec.missing == 1' }]);
  t.deepEqual(one.evaluate(request(), authorizer), { matches: 'error', message: "expression 'object.spec.missing == 1' resulted in error: no such key: missing" });
  const two = compileMatchConditions([
    { name: 'x', expression: 'object.spec.missing == 1' },
    { name: 'y', expression: 'object.nope' },
  ]);
  const r = two.evaluate(request(), authorizer);
  t.is(r.matches, 'error');
  t.regex((r as { message: string }).message, /^\[expression 'object.spec.missing == 1' resulted in error: no such key: missing, compilation error: must evaluate to bool but got dyn\]$/);
});

test('on DELETE object is null and oldObject the stored object', (t) => {
  const m = compileMatchConditions([{ name: 'del', expression: "object == null && oldObject.metadata.name == 'w'" }]);
  const stored = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w', namespace: 'ns' } };
  t.deepEqual(m.evaluate(request({ operation: 'DELETE', object: stored }), authorizer), { matches: true });
});

test('the authorizer answers checks for the request user; requestResource describes the request', (t) => {
  const m = compileMatchConditions([
    { name: 'authz', expression: "authorizer.group('').resource('pods').namespace('ns').check('get').allowed()" },
    { name: 'rr', expression: "authorizer.requestResource.check('create').allowed() && authorizer.requestResource.check('x').reason() == 'ok'" },
    { name: 'denied', expression: "!authorizer.group('').resource('pods').check('delete').allowed() && authorizer.group('').resource('pods').check('delete').reason() == 'no deletes'" },
    { name: 'path', expression: "authorizer.path('/healthz').check('get').allowed() && !authorizer.path('/x').check('get').errored()" },
    { name: 'sa', expression: "authorizer.serviceAccount('ns', 'default').group('apps').resource('deployments').check('list').allowed()" },
  ]);
  t.deepEqual(m.evaluate(request(), authorizer), { matches: true });
  const rr = asked.find((r) => r.verb === 'create')!;
  t.deepEqual(rr, { user: { username: 'alice', groups: ['dev'] }, verb: 'create', resourceRequest: true, apiGroup: 'example.com', apiVersion: '*', resource: 'widgets', subresource: '', namespace: 'ns', name: 'w' });
  t.deepEqual(asked.find((r) => r.verb === 'list')!.user, { username: 'system:serviceaccount:ns:default', groups: ['system:serviceaccounts', 'system:serviceaccounts:ns'] });
  const bad = compileMatchConditions([{ name: 'empty', expression: "authorizer.group('').resource('').check('get').allowed()" }]);
  t.deepEqual(bad.evaluate(request(), authorizer), {
    matches: 'error',
    message: "expression 'authorizer.group('').resource('').check('get').allowed()' resulted in error: resource must not be empty",
  });
});

test('request fields are typed: a misspelt one does not compile', (t) => {
  const m = compileMatchConditions([{ name: 'typo', expression: "request.usrInfo.username == 'a'" }]);
  const r = m.evaluate(request(), authorizer);
  t.is(r.matches, 'error');
  t.true((r as { message: string }).message.startsWith("compilation error: compilation failed: ERROR: <input>:1:8: undefined field 'usrInfo'"));
});

test('no conditions: matches', (t) => {
  t.deepEqual(compileMatchConditions([]).evaluate(request(), authorizer), { matches: true });
});
