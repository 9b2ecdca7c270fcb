import test from 'ava';
import { parseTokenFile, readTokenFile, TokenFileError } from '../../../../plugins/auth/index.js';

test('kube\'s token file: token,user,uid and optional groups, comma-separated in one quoted column', (t) => {
  const tokens = parseTokenFile('tokens.csv', 'tok-a,alice,1001,"devs,ops"\ntok-b,bob,1002\ntok-c,carol,,admins,ignored\n');
  t.deepEqual(tokens, [
    { token: 'tok-a', user: { username: 'alice', uid: '1001', groups: ['devs', 'ops'] } },
    { token: 'tok-b', user: { username: 'bob', uid: '1002', groups: [] } },
    { token: 'tok-c', user: { username: 'carol', uid: '', groups: ['admins'] } },
  ]);
});

test('records with an empty token are skipped; of a token given twice the last record wins', (t) => {
  t.deepEqual(parseTokenFile('f', ',nobody,0\ntok,first,1\ntok,second,2\n'), [{ token: 'tok', user: { username: 'second', uid: '2', groups: [] } }]);
});

test('a file kube refuses is a TokenFileError with kube\'s reason and the line', (t) => {
  const cases: [string, string][] = [
    ['tok,alice,1\ntok-b,bob\n', "token file 'tokens.csv' must have at least 3 columns (token, user name, user uid), found 2 (line 2)"],
    ['tok,alice,1\n\n# a comment\n', "token file 'tokens.csv' must have at least 3 columns (token, user name, user uid), found 1 (line 3)"],
    ['tok,al"ice,1\n', 'token file \'tokens.csv\': parse error on line 1, column 7: bare " in non-quoted field'],
  ];
  for (const [text, message] of cases) t.throws(() => parseTokenFile('tokens.csv', text), { instanceOf: TokenFileError, message }, JSON.stringify(text));
});

test('a missing file is a TokenFileError naming it', async (t) => {
  await t.throwsAsync(readTokenFile('/nonexistent/tokens.csv'), { instanceOf: TokenFileError, message: /^cannot read token file '\/nonexistent\/tokens.csv': ENOENT/ });
});
