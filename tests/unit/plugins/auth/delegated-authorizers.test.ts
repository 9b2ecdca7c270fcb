// The authorizers before the front server's in delegated authorization: always-allowed paths and groups.
import test from 'ava';
import { AlwaysAllowPathsAuthorizer } from '../../../../plugins/auth/always-allow-paths-authorizer.js';
import { PrivilegedGroupsAuthorizer } from '../../../../plugins/auth/privileged-groups-authorizer.js';

const user = (groups: string[]) => ({ username: 'u', groups });
const request = (path: string, groups: string[] = []) => ({ user: user(groups), verb: 'get', isResourceRequest: false, path });

test('always-allowed paths: exact ones and trailing-* prefixes, with or without the leading slash; others no opinion', async (t) => {
  const paths = new AlwaysAllowPathsAuthorizer(['/healthz', 'readyz', '/custom/*']);
  for (const allowed of ['/healthz', '/readyz', '/custom/', '/custom/deep/path']) t.is((await paths.authorize(request(allowed))).decision, 'allow', allowed);
  for (const other of ['/healthz/x', '/livez', '/custom', '/api']) t.is((await paths.authorize(request(other))).decision, 'no-opinion', other);
  t.deepEqual(paths.rulesFor(), { rules: [{ verbs: ['*'], nonResourceURLs: ['/healthz', '/readyz', '/custom/*'] }], incomplete: false });
  t.throws(() => new AlwaysAllowPathsAuthorizer(['/a*/b']), { message: 'only trailing * allowed in "a*/b"' });
});

test('always-allowed groups: their members may do everything; others no opinion', async (t) => {
  const groups = new PrivilegedGroupsAuthorizer(['system:masters']);
  t.is((await groups.authorize(request('/api', ['system:authenticated', 'system:masters']))).decision, 'allow');
  t.is((await groups.authorize(request('/api', ['system:authenticated']))).decision, 'no-opinion');
  t.is(groups.rulesFor(user(['system:masters'])).rules.length, 2);
  t.deepEqual(groups.rulesFor(user(['devs'])), { rules: [], incomplete: false });
});
