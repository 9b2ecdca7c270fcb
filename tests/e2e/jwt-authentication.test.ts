/**
 * `kapi serve --authentication-config`: tokens of a JWT issuer — a real OpenID provider on loopback HTTPS (discovery
 * document, JWKS, its own CA) with a generated RSA key — authenticate kubectl; tokens that are expired, for another
 * audience, unsigned (`alg: none`), signed by another key, or that fail a claim or user validation rule are 401; a
 * bad configuration stops the start with kube's messages; a changed file is followed.
 */
import test from 'ava';
import https from 'node:https';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import { startKapi, tempFile, type KapiProcess } from '../helpers/kapi-process.js';
import { startOidcIssuer, type OidcIssuer } from '../helpers/oidc-issuer.js';

function configYaml(issuer: OidcIssuer, audience: string): string {
  const ca = issuer.caPem.trim().split('\n').map((l) => `      ${l}`).join('\n');
  return `apiVersion: apiserver.config.k8s.io/v1
kind: AuthenticationConfiguration
jwt:
- issuer:
    url: ${issuer.url}
    audiences: [${audience}]
    certificateAuthority: |
${ca}
  claimValidationRules:
  - expression: 'claims.hd == "example.com"'
    message: the hosted domain must be example.com
  claimMappings:
    username:
      claim: sub
      prefix: "oidc:"
    groups:
      expression: 'claims.roles.map(r, "role:" + r)'
    extra:
    - key: example.com/tenant
      valueExpression: claims.tenant
  userValidationRules:
  - expression: "!user.username.startsWith('oidc:system:')"
    message: reserved name
`;
}

let issuer: OidcIssuer;
let kapi: KapiProcess;
let configPath: string;

test.before(async () => {
  issuer = await startOidcIssuer();
  configPath = tempFile('authentication-config.yaml', configYaml(issuer, 'kapi'));
  kapi = await startKapi({ args: ['--authentication-config', configPath] });
});

test.after.always(async () => {
  await kapi?.stop();
  await issuer?.close();
});

const hour = 3600;

async function token(claims: Record<string, unknown>, opts: { key?: CryptoKey; expiresIn?: number; audience?: string } = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ hd: 'example.com', roles: ['dev'], tenant: 't1', ...claims })
    .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
    .setIssuer(issuer.url)
    .setAudience(opts.audience ?? 'kapi')
    .setIssuedAt(now)
    .setExpirationTime(now + (opts.expiresIn ?? hour))
    .sign(opts.key ?? issuer.key);
}

/** GET `path` on kapi with the bearer token: the status code. */
function statusWith(bearer: string, path = '/api'): Promise<number> {
  const { hostname, port } = new URL(kapi.url);
  const ca = readFileSync(join(kapi.dataDir, 'pki', 'ca.crt'));
  return new Promise((resolve, reject) => {
    https
      .get({ host: hostname, port, path, ca, headers: { authorization: `Bearer ${bearer}` } }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      })
      .on('error', reject);
  });
}

test.serial('kubectl authenticates with a token of the configured issuer, and only with it', async (t) => {
  const good = await token({ sub: 'alice' });
  // kubectl with the token only: the server's CA, no kubeconfig credentials
  const ca = join(kapi.dataDir, 'pki', 'ca.crt');
  const r = await kapi.kubectl(['--kubeconfig=/dev/null', `--server=${kapi.url}`, `--certificate-authority=${ca}`, `--token=${good}`, 'get', '--raw', '/api']);
  t.is(r.code, 0, r.stderr);
  t.is(JSON.parse(r.stdout).kind, 'APIVersions');
  const forged = await token({ sub: 'alice' }, { key: (await generateKeyPair('RS256')).privateKey });
  const refused = await kapi.kubectl(['--kubeconfig=/dev/null', `--server=${kapi.url}`, `--certificate-authority=${ca}`, `--token=${forged}`, 'get', '--raw', '/api']);
  t.is(refused.code, 1);
  t.regex(refused.stderr, /Unauthorized/);
});

test.serial('expired, wrong-audience, unsigned and rule-failing tokens are 401', async (t) => {
  t.is(await statusWith(await token({ sub: 'alice' })), 200);
  t.is(await statusWith(await token({ sub: 'alice' }, { expiresIn: -60 })), 401, 'expired');
  t.is(await statusWith(await token({ sub: 'alice' }, { audience: 'someone-else' })), 401, 'audience');
  t.is(await statusWith(await token({ sub: 'alice', hd: 'evil.com' })), 401, 'claim validation rule');
  t.is(await statusWith(await token({ sub: 'system:admin' })), 401, 'user validation rule');
  t.is(await statusWith(await token({ sub: 7 })), 401, 'a username claim that is not a string');
  t.is(await statusWith(await token({ sub: 'alice', roles: 'dev' })), 401, 'groups expression over a string');
  const payload = Buffer.from(JSON.stringify({ iss: issuer.url, aud: 'kapi', sub: 'alice', hd: 'example.com', exp: Math.floor(Date.now() / 1000) + hour })).toString('base64url');
  const unsigned = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${payload}.`;
  t.is(await statusWith(unsigned), 401, 'alg none');
  t.is(await statusWith('not.a.jwt'), 401);
  t.is(await statusWith(`${'a'.repeat(4000)}.${'b'.repeat(4000)}.c`), 401);
  t.is(await statusWith(await token({ sub: 'alice' }), '/healthz'), 200);
});

test.serial('a changed file is followed: the audience it names now is the one accepted', async (t) => {
  const forNew = await token({ sub: 'alice' }, { audience: 'kapi-2' });
  t.is(await statusWith(forNew), 401);
  writeFileSync(configPath, configYaml(issuer, 'kapi-2'));
  const deadline = Date.now() + 20_000;
  while ((await statusWith(forNew)) !== 200 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
  t.is(await statusWith(forNew), 200);
  t.is(await statusWith(await token({ sub: 'alice' })), 401, 'the old audience');
  // an invalid file leaves the configuration in force
  writeFileSync(configPath, 'apiVersion: apiserver.config.k8s.io/v1\nkind: AuthenticationConfiguration\njwt:\n- issuer: {url: "http://x"}\n');
  await new Promise((r) => setTimeout(r, 1_000));
  t.is(await statusWith(forNew), 200);
  t.regex(kapi.output(), /not reloaded, the previous one stays in force: \[jwt\[0\]\.issuer\.url: Invalid value: \\"http:\/\/x\\": URL scheme must be https/); // quoted in a klog text line
});

test('an invalid configuration stops the start with kube\'s field errors', async (t) => {
  const bad = tempFile(
    'bad-authentication-config.yaml',
    `apiVersion: apiserver.config.k8s.io/v1
kind: AuthenticationConfiguration
jwt:
- issuer: {url: "https://a.example.com", audiences: [x, y]}
  claimMappings:
    username: {claim: sub}
    extra: [{key: kubernetes.io/x, valueExpression: "claims.x +"}]
`,
  );
  await t.throwsAsync(startKapi({ args: ['--authentication-config', bad] }), {
    message: /jwt\[0\]\.issuer\.audienceMatchPolicy: Invalid value: "": audienceMatchPolicy must be MatchAny for multiple audiences.*jwt\[0\]\.claimMappings\.username\.prefix: Required value: prefix is required when claim is set.*k8s\.io, kubernetes\.io and their subdomains are reserved for Kubernetes use.*compilation failed/s,
  });
  const unknown = tempFile('unknown-field.yaml', 'apiVersion: apiserver.config.k8s.io/v1\nkind: AuthenticationConfiguration\njwt:\n- issuer: {url: "https://a.example.com", audiences: [x], bogus: 1}\n  claimMappings: {username: {expression: claims.sub}}\n');
  await t.throwsAsync(startKapi({ args: ['--authentication-config', unknown] }), { message: /strict decoding error: unknown field "jwt\[0\]\.issuer\.bogus"/ });
});
