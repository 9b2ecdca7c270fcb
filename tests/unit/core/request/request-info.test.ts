import test from 'ava';
import { parseRequestInfo, requestNamespace } from '../../../../core/request/request-info.js';

const info = (method: string, url: string) => {
  const [path, query = ''] = url.split('?');
  return parseRequestInfo(method, path!, new URLSearchParams(query));
};

test('a list or watch selecting metadata.name is about that name, as kube authorizes and audits it', (t) => {
  t.like(info('GET', '/api/v1/namespaces/ns/configmaps?fieldSelector=metadata.name%3Done'), { verb: 'list', name: 'one' });
  t.like(info('GET', '/api/v1/namespaces/ns/configmaps?watch=true&fieldSelector=metadata.name%3D%3Done,data.a%3D1'), { verb: 'watch', name: 'one' });
  // not an exact match, not a valid path segment, not parsed, or through the deprecated watch path: no name
  for (const url of [
    '/api/v1/namespaces/ns/configmaps?fieldSelector=metadata.name!%3Done',
    '/api/v1/namespaces/ns/configmaps?fieldSelector=metadata.name%3D..',
    '/api/v1/namespaces/ns/configmaps?fieldSelector=metadata.name%3Da%2Fb',
    '/api/v1/namespaces/ns/configmaps?fieldSelector=metadata.name%3Da%3Db',
    '/api/v1/watch/namespaces/ns/configmaps?fieldSelector=metadata.name%3Done',
  ]) {
    t.is(info('GET', url).name, '', url);
  }
  t.like(info('DELETE', '/api/v1/namespaces/ns/configmaps?fieldSelector=metadata.name%3Done'), { verb: 'deletecollection', name: '' });
});

test('list, watch and deletecollection carry their selectors as sent (the first of each) for authorizers; other verbs do not', (t) => {
  t.like(info('GET', '/apis/apps/v1/deployments?labelSelector=app%3Dweb&labelSelector=x&fieldSelector=spec.x%3D1'), {
    verb: 'list',
    labelSelector: 'app=web',
    fieldSelector: 'spec.x=1',
  });
  t.like(info('DELETE', '/api/v1/namespaces/ns/pods?labelSelector=app%3Dweb'), { verb: 'deletecollection', labelSelector: 'app=web' });
  t.like(info('GET', '/api/v1/namespaces/ns/pods?watch=1&labelSelector='), { verb: 'watch', labelSelector: '' });
  for (const [method, url] of [
    ['GET', '/api/v1/namespaces/ns/pods/p1?labelSelector=app%3Dweb'],
    ['POST', '/api/v1/namespaces/ns/pods?labelSelector=app%3Dweb'],
    ['GET', '/api/v1/watch/namespaces/ns/pods?labelSelector=app%3Dweb'],
  ] as const) {
    const i = info(method, url);
    t.is(i.labelSelector, undefined, url);
    t.is(i.fieldSelector, undefined, url);
  }
});

test('a namespace is authorized in itself when its path names it, at the cluster scope when a list or watch selects it by name', (t) => {
  t.is(requestNamespace(info('GET', '/api/v1/namespaces/foo')), 'foo');
  t.is(requestNamespace(info('PUT', '/api/v1/namespaces/foo/finalize')), 'foo');
  t.is(requestNamespace(info('GET', '/api/v1/watch/namespaces/foo')), 'foo');
  t.like(info('GET', '/api/v1/namespaces?watch=1&fieldSelector=metadata.name%3Dfoo'), { verb: 'watch', name: 'foo', namespace: '' });
  t.is(requestNamespace(info('GET', '/api/v1/namespaces?watch=1&fieldSelector=metadata.name%3Dfoo')), '');
  t.is(requestNamespace(info('GET', '/api/v1/namespaces/ns/configmaps?fieldSelector=metadata.name%3Done')), 'ns');
});
