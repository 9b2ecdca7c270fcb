import test from 'ava';
import { resolve } from 'node:path';
import { effectiveFlags, parseServeFlags, type ServeOptions } from '../../../cli/serve-flags.js';
import { UsageError } from '../../../cli/usage-error.js';

/** The ServiceAccount token settings without flags: kubeadm's issuer, which is also the one API audience. */
const defaultServiceAccounts = {
  issuers: ['https://kubernetes.default.svc.cluster.local'],
  audiences: ['https://kubernetes.default.svc.cluster.local'],
  keyFiles: [],
  maxExpirationSeconds: 0,
};

/** kube-apiserver's in-flight limits, with priority and fairness on. */
const defaultRequestLimits = { maxRequestsInflight: 400, maxMutatingRequestsInflight: 200, enablePriorityAndFairness: true };

test('defaults', (t) => {
  t.deepEqual(parseServeFlags([]), {
    dataDir: resolve('.kapi'),
    port: 6443,
    bindAddress: '127.0.0.1',
    storage: 'sqlite',
    crdPaths: [],
    authorizationModes: ['RBAC'],
    serviceAccounts: defaultServiceAccounts,
    anonymousAuth: true,
    ...defaultRequestLimits,
    shutdown: {},
  });
});

test('all flags', (t) => {
  const args = ['--data-dir', '/tmp/k', '--port', '0', '--bind-address', '0.0.0.0', '--storage', 'memory', '--crds', 'a.yaml', '--crds=/crds'];
  t.deepEqual(parseServeFlags(args), {
    dataDir: '/tmp/k',
    port: 0,
    bindAddress: '0.0.0.0',
    storage: 'memory',
    crdPaths: [resolve('a.yaml'), '/crds'],
    authorizationModes: ['RBAC'],
    serviceAccounts: defaultServiceAccounts,
    anonymousAuth: true,
    ...defaultRequestLimits,
    shutdown: {},
  });
});

test('--admission-plugins names the plugins to run, in order; empty runs none', (t) => {
  t.deepEqual((parseServeFlags(['--admission-plugins', 'CreatedBy, NamespaceLifecycle']) as { admissionPlugins?: string[] }).admissionPlugins, [
    'CreatedBy',
    'NamespaceLifecycle',
  ]);
  t.deepEqual((parseServeFlags(['--admission-plugins=']) as { admissionPlugins?: string[] }).admissionPlugins, []);
});

test('--admission-control-config-file takes the AdmissionConfiguration file, made absolute', (t) => {
  const opts = parseServeFlags(['--admission-control-config-file', 'admission.yaml']) as ServeOptions;
  t.is(opts.admissionControlConfigFile, resolve('admission.yaml'));
  t.false('admissionControlConfigFile' in (parseServeFlags([]) as ServeOptions));
});

test('--encryption-provider-config takes the EncryptionConfiguration file, made absolute', (t) => {
  const opts = parseServeFlags(['--encryption-provider-config', 'encryption.yaml']) as ServeOptions;
  t.is(opts.encryptionProviderConfig, resolve('encryption.yaml'));
  t.false('encryptionProviderConfig' in (parseServeFlags([]) as ServeOptions));
});

test('--encryption-provider-config-automatic-reload takes a Go boolean (default false) and needs --encryption-provider-config', (t) => {
  const reload = (...args: string[]) => (parseServeFlags(['--encryption-provider-config', 'encryption.yaml', ...args]) as ServeOptions).encryptionProviderConfigAutomaticReload ?? false;
  t.false(reload());
  t.true(reload('--encryption-provider-config-automatic-reload'));
  t.true(reload('--encryption-provider-config-automatic-reload=true'));
  t.false(reload('--encryption-provider-config-automatic-reload=false'));
  t.throws(() => reload('--encryption-provider-config-automatic-reload=yes'), {
    instanceOf: UsageError,
    message: 'invalid argument "yes" for "--encryption-provider-config-automatic-reload" flag: strconv.ParseBool: parsing "yes": invalid syntax',
  });
  t.throws(() => parseServeFlags(['--encryption-provider-config-automatic-reload']), {
    instanceOf: UsageError,
    message: '--encryption-provider-config-automatic-reload must be set with --encryption-provider-config',
  });
  t.false('encryptionProviderConfigAutomaticReload' in (parseServeFlags(['--encryption-provider-config-automatic-reload=false']) as ServeOptions));
});

test('--authorization-mode takes kube\'s mode names in order; Node and ABAC are refused', (t) => {
  const modes = (args: string[]) => (parseServeFlags(args) as ServeOptions).authorizationModes;
  t.deepEqual(modes(['--authorization-mode', 'AlwaysAllow']), ['AlwaysAllow']);
  t.deepEqual(modes(['--authorization-mode=RBAC, AlwaysDeny']), ['RBAC', 'AlwaysDeny']);
  const cases: Array<[string, string]> = [
    ['', '--authorization-mode: at least one authorization-mode must be passed'],
    ['Node,RBAC', '--authorization-mode Node is not supported by kapi: use RBAC, AlwaysAllow, AlwaysDeny, Webhook'],
    ['ABAC', '--authorization-mode ABAC is not supported by kapi: use RBAC, AlwaysAllow, AlwaysDeny, Webhook'],
    ['rbac', '--authorization-mode: authorization-mode "rbac" is not a valid mode (valid: RBAC, AlwaysAllow, AlwaysDeny, Webhook)'],
    ['RBAC,RBAC', '--authorization-mode: authorization-mode "RBAC" has mode specified more than once'],
  ];
  for (const [value, message] of cases) t.throws(() => parseServeFlags(['--authorization-mode', value]), { instanceOf: UsageError, message }, value);
});

test('help', (t) => {
  t.is(parseServeFlags(['--help']), 'help');
  t.is(parseServeFlags(['-h']), 'help');
});

test('bad command lines are usage errors', (t) => {
  for (const args of [['--storage', 'mysql'], ['--port', 'x'], ['--port', '70000'], ['--port', '-1'], ['--nope'], ['extra'], ['--port']]) {
    t.throws(() => parseServeFlags(args), { instanceOf: UsageError }, args.join(' '));
  }
  t.throws(() => parseServeFlags(['--storage', 'mysql']), { message: 'invalid --storage "mysql": must be sqlite, memory or etcd' });
});

test('--storage etcd: servers (comma-separated), prefix (default /registry), TLS files', (t) => {
  t.deepEqual(parseServeFlags(['--storage', 'etcd', '--etcd-servers', 'http://127.0.0.1:2379']), {
    dataDir: resolve('.kapi'),
    port: 6443,
    bindAddress: '127.0.0.1',
    storage: 'etcd',
    etcd: { endpoints: ['http://127.0.0.1:2379'], prefix: '/registry' },
    crdPaths: [],
    authorizationModes: ['RBAC'],
    serviceAccounts: defaultServiceAccounts,
    anonymousAuth: true,
    ...defaultRequestLimits,
    shutdown: {},
  });
  const args = [
    '--storage=etcd',
    '--etcd-servers', 'https://10.0.0.1:2379, https://10.0.0.2:2379/,https://etcd-3.example:2379',
    '--etcd-prefix', '/kapi/one',
    '--etcd-cafile', 'pki/ca.crt',
    '--etcd-certfile', '/pki/client.crt',
    '--etcd-keyfile', '/pki/client.key',
  ];
  t.deepEqual((parseServeFlags(args) as { etcd?: unknown }).etcd, {
    endpoints: ['https://10.0.0.1:2379', 'https://10.0.0.2:2379', 'https://etcd-3.example:2379'],
    prefix: '/kapi/one',
    tls: { caFile: resolve('pki/ca.crt'), certFile: '/pki/client.crt', keyFile: '/pki/client.key' },
  });
});

test('bad etcd flags are usage errors with their reason', (t) => {
  const cases: Array<[string[], string]> = [
    [['--storage', 'etcd'], '--etcd-servers must be specified with --storage etcd'],
    [['--storage', 'etcd', '--etcd-servers', ' , '], '--etcd-servers must be specified with --storage etcd'],
    [['--etcd-servers', 'http://127.0.0.1:2379'], '--etcd-servers is only used with --storage etcd'],
    [['--storage', 'memory', '--etcd-prefix', '/x'], '--etcd-prefix is only used with --storage etcd'],
    [
      ['--storage', 'etcd', '--etcd-servers', '127.0.0.1:2379'],
      'invalid --etcd-servers "127.0.0.1:2379": each server must be an http:// or https:// URL (e.g. http://127.0.0.1:2379)',
    ],
    [['--storage', 'etcd', '--etcd-servers', 'http://a:2379,https://b:2379'], '--etcd-servers must be all http:// or all https://'],
    [['--storage', 'etcd', '--etcd-servers', 'http://a:2379', '--etcd-prefix', 'registry'], 'invalid --etcd-prefix "registry": must start with "/"'],
    [
      ['--storage', 'etcd', '--etcd-servers', 'https://a:2379', '--etcd-certfile', 'c.crt'],
      '--etcd-certfile and --etcd-keyfile must be given together',
    ],
    [
      ['--storage', 'etcd', '--etcd-servers', 'http://a:2379', '--etcd-cafile', 'ca.crt'],
      '--etcd-cafile, --etcd-certfile and --etcd-keyfile need https:// --etcd-servers',
    ],
  ];
  for (const [args, message] of cases) t.throws(() => parseServeFlags(args), { instanceOf: UsageError, message }, args.join(' '));
});

test('--etcd-compaction-interval takes a Go duration as kube-apiserver does; 0 never compacts', (t) => {
  const interval = (value: string) =>
    (parseServeFlags(['--storage', 'etcd', '--etcd-servers', 'http://a:2379', '--etcd-compaction-interval', value]) as { compactionIntervalMs?: number })
      .compactionIntervalMs;
  t.is(interval('5m0s'), 300_000);
  t.is(interval('1h30m'), 5_400_000);
  t.is(interval('1.5s'), 1_500);
  t.is(interval('0'), 0);
  t.is(interval('500us'), 1, 'rounded up to the 1 ms a timer can wait, not down to never');
  t.false('compactionIntervalMs' in (parseServeFlags(['--storage', 'etcd', '--etcd-servers', 'http://a:2379']) as object), 'absent: the server default');
});

test('bad --etcd-compaction-interval values are usage errors with their reason', (t) => {
  const etcd = ['--storage', 'etcd', '--etcd-servers', 'http://a:2379', '--etcd-compaction-interval'];
  const cases: [string[], string][] = [
    [[...etcd, '5'], 'invalid --etcd-compaction-interval "5": must be a duration such as 5m0s, 90s or 1h30m (0 never compacts)'],
    [[...etcd, 'ten minutes'], 'invalid --etcd-compaction-interval "ten minutes": must be a duration such as 5m0s, 90s or 1h30m (0 never compacts)'],
    [[...etcd.slice(0, -1), '--etcd-compaction-interval=-1m'], 'invalid --etcd-compaction-interval "-1m": must not be negative'],
    [[...etcd, '1000h'], 'invalid --etcd-compaction-interval "1000h": must be at most 596h'],
    [['--etcd-compaction-interval', '1m'], '--etcd-compaction-interval is only used with --storage etcd'],
  ];
  for (const [args, message] of cases) t.throws(() => parseServeFlags(args), { instanceOf: UsageError, message }, args.join(' '));
});

test('--watch-cache-history-size takes bytes with an optional binary suffix', (t) => {
  const size = (text: string) => (parseServeFlags(['--watch-cache-history-size', text]) as ServeOptions).watchCacheHistoryBytes;
  t.is(size('1048576'), 1048576);
  t.is(size('512Ki'), 512 * 1024);
  t.is(size('64Mi'), 64 * 1024 * 1024);
  t.is(size('1Gi'), 1024 ** 3);
  t.is((parseServeFlags([]) as ServeOptions).watchCacheHistoryBytes, undefined);
  for (const bad of ['0', '-1', '1.5Mi', '64MB', 'lots']) {
    t.throws(() => parseServeFlags([`--watch-cache-history-size=${bad}`]), {
      message: `invalid --watch-cache-history-size "${bad}": must be a positive number of bytes, e.g. 1048576, 512Ki or 64Mi`,
    });
  }
});

test("--tls-cipher-suites takes kube-apiserver's names, comma-separated; --tls-min-version VersionTLS12 or VersionTLS13", (t) => {
  const opts = parseServeFlags([
    '--tls-cipher-suites',
    'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256, TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305,TLS_AES_128_GCM_SHA256',
    '--tls-min-version=VersionTLS13',
  ]) as { tlsCipherSuites?: string[]; tlsMinVersion?: string };
  t.deepEqual(opts.tlsCipherSuites, ['TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256', 'TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305', 'TLS_AES_128_GCM_SHA256']);
  t.is(opts.tlsMinVersion, 'VersionTLS13');
  t.is((parseServeFlags(['--tls-min-version', 'VersionTLS12']) as { tlsMinVersion?: string }).tlsMinVersion, 'VersionTLS12');
  const empty = parseServeFlags(['--tls-cipher-suites=', '--tls-min-version=']) as object;
  t.false('tlsCipherSuites' in empty || 'tlsMinVersion' in empty, 'empty: the defaults, as kube-apiserver');
});

test('bad --tls-cipher-suites and --tls-min-version values are usage errors with kube-apiserver\'s reason', (t) => {
  const cases: [string[], string][] = [
    [['--tls-cipher-suites', 'TLS_RSA_WITH_RC4_128_SHA,ECDHE-RSA-AES128-GCM-SHA256'], 'invalid --tls-cipher-suites "TLS_RSA_WITH_RC4_128_SHA,ECDHE-RSA-AES128-GCM-SHA256": Cipher suite ECDHE-RSA-AES128-GCM-SHA256 not supported or doesn\'t exist'],
    [['--tls-min-version', 'tls1.3'], 'invalid --tls-min-version "tls1.3": unknown tls version "tls1.3"'],
    [['--tls-min-version', 'VersionTLS10'], '--tls-min-version VersionTLS10 is not supported: kapi serves TLS 1.2 and 1.3 only (VersionTLS12 or VersionTLS13)'],
  ];
  for (const [args, message] of cases) t.throws(() => parseServeFlags(args), { instanceOf: UsageError, message }, args.join(' '));
});

test('--service-account-* flags and --api-audiences as kube-apiserver takes them', (t) => {
  const args = [
    '--service-account-issuer', 'https://issuer.example.com',
    '--service-account-issuer=https://old.example.com',
    '--service-account-signing-key-file', 'sa.key',
    '--service-account-key-file', 'old.pub',
    '--service-account-key-file=/keys/other.pub',
    '--service-account-max-token-expiration', '24h',
    '--service-account-jwks-uri', 'https://issuer.example.com/keys',
  ];
  t.deepEqual((parseServeFlags(args) as ServeOptions).serviceAccounts, {
    issuers: ['https://issuer.example.com', 'https://old.example.com'],
    audiences: ['https://issuer.example.com'],
    signingKeyFile: resolve('sa.key'),
    keyFiles: [resolve('old.pub'), '/keys/other.pub'],
    maxExpirationSeconds: 86400,
    jwksUri: 'https://issuer.example.com/keys',
  });
  t.deepEqual((parseServeFlags(['--api-audiences', 'api, vault']) as ServeOptions).serviceAccounts.audiences, ['api', 'vault']);
});

test('bad --service-account-* flags are usage errors with kube-apiserver\'s reason', (t) => {
  const refused = (args: string[], message: string) => t.throws(() => parseServeFlags(args), { instanceOf: UsageError, message }, args.join(' '));
  refused(['--service-account-issuer', ''], 'service-account-issuer should not be an empty string');
  refused(['--service-account-issuer', 'https://a', '--service-account-issuer', 'https://a'], 'service-account-issuer "https://a" is already specified');
  refused(['--service-account-issuer', 'http://[::1'], 'service-account-issuer "http://[::1" contained a \':\' but was not a valid URL');
  refused(['--service-account-max-token-expiration', '30m'], 'the service-account-max-token-expiration must be between 1 hour and 2^32 seconds');
  refused(['--service-account-max-token-expiration', 'soon'], 'invalid --service-account-max-token-expiration "soon": must be a duration such as 24h');
});

test('--event-ttl takes a positive Go duration as kube-apiserver does', (t) => {
  const ttl = (value: string) => (parseServeFlags(['--event-ttl', value]) as ServeOptions).eventTtlMs;
  t.is(ttl('1h0m0s'), 3_600_000);
  t.is(ttl('90s'), 90_000);
  t.false('eventTtlMs' in (parseServeFlags([]) as object), 'absent: the events module default');
  t.throws(() => parseServeFlags(['--event-ttl', '5']), { instanceOf: UsageError, message: 'invalid --event-ttl "5": must be a duration such as 30m or 2h' });
  t.throws(() => parseServeFlags(['--event-ttl', '0s']), { instanceOf: UsageError, message: 'invalid --event-ttl "0s": must be positive' });
});

test('--shutdown-* flags: Go durations that may not be negative, and a Go boolean (alone: true), with kube-apiserver\'s messages', (t) => {
  const shutdown = (...args: string[]) => (parseServeFlags(args) as ServeOptions).shutdown;
  t.deepEqual(shutdown('--shutdown-delay-duration', '5s', '--shutdown-send-retry-after', '--shutdown-watch-termination-grace-period=1m30s'), {
    delayMs: 5_000,
    sendRetryAfter: true,
    watchTerminationGracePeriodMs: 90_000,
  });
  t.deepEqual(shutdown('--shutdown-delay-duration=0', '--shutdown-send-retry-after=false'), { delayMs: 0, sendRetryAfter: false });
  t.deepEqual(shutdown('--shutdown-delay-duration=1.5ms'), { delayMs: 2 }, 'sub-millisecond parts round up');
  const cases: Array<[string[], string]> = [
    [['--shutdown-delay-duration=-1s'], '--shutdown-delay-duration can not be negative value'],
    [['--shutdown-watch-termination-grace-period=-5s'], 'shutdown-watch-termination-grace-period, if provided, can not be a negative value'],
    [['--shutdown-delay-duration=5'], 'invalid argument "5" for "--shutdown-delay-duration" flag: time: invalid duration "5"'],
    [['--shutdown-send-retry-after=yes'], 'invalid argument "yes" for "--shutdown-send-retry-after" flag: strconv.ParseBool: parsing "yes": invalid syntax'],
  ];
  for (const [args, message] of cases) t.throws(() => parseServeFlags(args), { instanceOf: UsageError, message }, args.join(' '));
});

test('--service-cluster-ip-range and --service-node-port-range as kube-apiserver takes them', (t) => {
  t.like(parseServeFlags(['--service-cluster-ip-range', '10.96.0.0/12', '--service-node-port-range=31000-31999']), {
    serviceClusterIPRange: '10.96.0.0/12',
    serviceNodePortRange: '31000-31999',
  });
  const cases: [string[], string][] = [
    [['--service-cluster-ip-range', '10.0.0.0'], 'invalid --service-cluster-ip-range "10.0.0.0": invalid CIDR address: 10.0.0.0 (kapi serves IPv4 service ranges only)'],
    [['--service-cluster-ip-range', 'fd00::/112'], 'invalid --service-cluster-ip-range "fd00::/112": invalid CIDR address: fd00::/112 (kapi serves IPv4 service ranges only)'],
    [
      ['--service-cluster-ip-range', '10.0.0.0/8'],
      'invalid --service-cluster-ip-range "10.0.0.0/8": specified --service-cluster-ip-range is too large; for 32-bit addresses, the mask must be >= 12',
    ],
    [['--service-node-port-range', '32767-30000'], 'invalid --service-node-port-range "32767-30000": invalid port range "32767-30000": must be "N-M" with 0 <= N <= M <= 65535'],
  ];
  for (const [args, message] of cases) t.throws(() => parseServeFlags(args), { instanceOf: UsageError, message }, args.join(' '));
});

test('--client-ca-file and --token-auth-file are made absolute; --anonymous-auth takes a Go boolean (default true)', (t) => {
  t.like(parseServeFlags(['--client-ca-file', 'ca.pem', '--token-auth-file=tokens.csv']), {
    clientCaFile: resolve('ca.pem'),
    tokenAuthFile: resolve('tokens.csv'),
    anonymousAuth: true,
  });
  const anonymous = (...args: string[]) => (parseServeFlags(args) as ServeOptions).anonymousAuth;
  t.false(anonymous('--anonymous-auth=false'));
  t.false(anonymous('--anonymous-auth=0'));
  t.true(anonymous('--anonymous-auth'));
  t.true(anonymous('--anonymous-auth=True'));
  t.throws(() => parseServeFlags(['--anonymous-auth=no']), {
    instanceOf: UsageError,
    message: 'invalid argument "no" for "--anonymous-auth" flag: strconv.ParseBool: parsing "no": invalid syntax',
  });
});

test('--requestheader-* flags: comma lists, repeatable, with the X-Remote-* defaults; nothing without the CA file', (t) => {
  t.deepEqual((parseServeFlags(['--requestheader-client-ca-file', 'proxy-ca.pem']) as ServeOptions).requestHeader, {
    clientCaFile: resolve('proxy-ca.pem'),
    allowedNames: [],
    usernameHeaders: ['X-Remote-User'],
    uidHeaders: [],
    groupHeaders: ['X-Remote-Group'],
    extraHeaderPrefixes: ['X-Remote-Extra-'],
  });
  const given = parseServeFlags([
    '--requestheader-client-ca-file=proxy-ca.pem',
    '--requestheader-allowed-names=front-proxy-client, aggregator',
    '--requestheader-username-headers=X-User',
    '--requestheader-username-headers=X-Remote-User',
    '--requestheader-uid-headers=X-Remote-Uid,X-Uid',
    '--requestheader-group-headers=X-Group',
    '--requestheader-extra-headers-prefix=X-Extra-,X-Remote-Extra-',
  ]) as ServeOptions;
  t.like(given.requestHeader, {
    allowedNames: ['front-proxy-client', 'aggregator'],
    usernameHeaders: ['X-User', 'X-Remote-User'],
    uidHeaders: ['X-Remote-Uid', 'X-Uid'],
    groupHeaders: ['X-Group'],
    extraHeaderPrefixes: ['X-Extra-', 'X-Remote-Extra-'],
  });
  t.is((parseServeFlags(['--requestheader-allowed-names=a']) as ServeOptions).requestHeader, undefined);
  t.throws(() => parseServeFlags(['--requestheader-client-ca-file=ca.pem', '--requestheader-group-headers=X-Group, ,X-Remote-Group']), {
    instanceOf: UsageError,
    message: 'empty value in "requestheader-group-headers"',
  });
});

test('--proxy-client-cert-file and --proxy-client-key-file: given together, or neither (the generated certificate)', (t) => {
  t.is((parseServeFlags([]) as ServeOptions).proxyClient, undefined);
  t.deepEqual((parseServeFlags(['--proxy-client-cert-file', 'proxy.crt', '--proxy-client-key-file=proxy.key']) as ServeOptions).proxyClient, {
    certFile: resolve('proxy.crt'),
    keyFile: resolve('proxy.key'),
  });
  for (const alone of [['--proxy-client-cert-file', 'proxy.crt'], ['--proxy-client-key-file', 'proxy.key']]) {
    t.throws(() => parseServeFlags(alone), { instanceOf: UsageError, message: '--proxy-client-cert-file and --proxy-client-key-file must be specified together' });
  }
});

test('--authentication-token-webhook-*: kube-apiserver\'s defaults v1beta1 and 2m; its message for another version', (t) => {
  t.deepEqual((parseServeFlags(['--authentication-token-webhook-config-file', 'hook.kubeconfig']) as ServeOptions).tokenWebhook, {
    configFile: resolve('hook.kubeconfig'),
    version: 'v1beta1',
    cacheTtlMs: 120_000,
  });
  const given = parseServeFlags(['--authentication-token-webhook-config-file=h', '--authentication-token-webhook-version=v1', '--authentication-token-webhook-cache-ttl=1m30s']) as ServeOptions;
  t.deepEqual(given.tokenWebhook, { configFile: resolve('h'), version: 'v1', cacheTtlMs: 90_000 });
  t.throws(() => parseServeFlags(['--authentication-token-webhook-config-file=h', '--authentication-token-webhook-version=v2']), {
    instanceOf: UsageError,
    message: 'unsupported authentication webhook version "v2", supported versions are "v1", "v1beta1"',
  });
  t.throws(() => parseServeFlags(['--authentication-token-webhook-config-file=h', '--authentication-token-webhook-cache-ttl=soon']), {
    instanceOf: UsageError,
    message: 'invalid argument "soon" for "--authentication-token-webhook-cache-ttl" flag: time: invalid duration "soon"',
  });
});

test('--authentication-kubeconfig: cached 10s, the lookup on and not tolerated unless the boolean flags say so', (t) => {
  t.deepEqual((parseServeFlags(['--authentication-kubeconfig', 'front.kubeconfig']) as ServeOptions).delegatedAuthentication, {
    kubeconfig: resolve('front.kubeconfig'),
    cacheTtlMs: 10_000,
    skipLookup: false,
    tolerateLookupFailure: false,
  });
  const given = parseServeFlags(['--authentication-kubeconfig=f', '--authentication-skip-lookup', '--authentication-tolerate-lookup-failure=true', '--authentication-token-webhook-cache-ttl=0']) as ServeOptions;
  t.deepEqual(given.delegatedAuthentication, { kubeconfig: resolve('f'), cacheTtlMs: 0, skipLookup: true, tolerateLookupFailure: true });
  t.throws(() => parseServeFlags(['--authentication-kubeconfig=f', '--authentication-token-webhook-config-file=h']), {
    instanceOf: UsageError,
    message: /^--authentication-token-webhook-config-file and --authentication-kubeconfig cannot be used together/,
  });
  t.is((parseServeFlags(['--authentication-skip-lookup']) as ServeOptions).delegatedAuthentication, undefined);
});

test('--runtime-config is read as kube reads it: comma-separated key=value, trimmed, a bare key is "", repeatable, the last value of a key wins', (t) => {
  const opts = parseServeFlags(['--runtime-config', 'api/all=false, apiextensions.k8s.io/v1 ,,/v1= true', '--runtime-config=rbac.authorization.k8s.io/v1=false,/v1=false']);
  t.deepEqual(opts !== 'help' && opts.runtimeConfig, { 'api/all': 'false', 'apiextensions.k8s.io/v1': '', '/v1': 'false', 'rbac.authorization.k8s.io/v1': 'false' });
  // nothing is refused here: the server checks the keys against what it serves
  const odd = parseServeFlags(['--runtime-config=api/all=maybe,__proto__=x=y']);
  t.deepEqual(odd !== 'help' && { ...odd.runtimeConfig }, { 'api/all': 'maybe', ['__proto__']: 'x=y' });
});

test('effectiveFlags, for /flagz: the flags given and those with a default; repeatable ones as [a,b]; no help', (t) => {
  const flags = effectiveFlags(['--storage', 'memory', '--port=0', '--crds', 'a.yaml', '--crds', 'b.yaml', '--anonymous-auth']);
  t.is(flags['storage'], 'memory');
  t.is(flags['port'], '0');
  t.is(flags['data-dir'], '.kapi');
  t.is(flags['crds'], '[a.yaml,b.yaml]');
  t.is(flags['anonymous-auth'], 'true');
  t.false('token-auth-file' in flags);
  t.false('help' in effectiveFlags(['--help']));
});

test('--max-requests-inflight, --max-mutating-requests-inflight and --enable-priority-and-fairness as kube-apiserver takes them', (t) => {
  t.like(parseServeFlags(['--max-requests-inflight', '7', '--max-mutating-requests-inflight=0', '--enable-priority-and-fairness=false']), {
    maxRequestsInflight: 7,
    maxMutatingRequestsInflight: 0,
    enablePriorityAndFairness: false,
  });
  t.like(parseServeFlags(['--enable-priority-and-fairness']), { enablePriorityAndFairness: true });
  const cases: [string[], string][] = [
    [['--max-requests-inflight=-1'], '--max-requests-inflight can not be negative value'],
    [['--max-mutating-requests-inflight', 'x'], 'invalid argument "x" for "--max-mutating-requests-inflight" flag: strconv.ParseInt: parsing "x": invalid syntax'],
    [
      ['--max-requests-inflight=0', '--max-mutating-requests-inflight=0'],
      '--max-requests-inflight plus --max-mutating-requests-inflight must be positive with --enable-priority-and-fairness',
    ],
  ];
  for (const [args, message] of cases) t.throws(() => parseServeFlags(args), { instanceOf: UsageError, message }, args.join(' '));
  t.like(parseServeFlags(['--max-requests-inflight=0', '--max-mutating-requests-inflight=0', '--enable-priority-and-fairness=false']), { maxRequestsInflight: 0 });
});

test('--http2-max-streams-per-connection takes a number of streams; 0 or less is the default; anything else is a usage error', (t) => {
  const streams = (...args: string[]) => (parseServeFlags(args) as ServeOptions).http2MaxStreamsPerConnection;
  t.is(streams(), undefined);
  t.is(streams('--http2-max-streams-per-connection', '1000'), 1000);
  t.is(streams('--http2-max-streams-per-connection=0'), 0);
  t.is(streams('--http2-max-streams-per-connection=-5'), 0);
  for (const bad of ['many', '1.5', '', '4294967296']) {
    const err = t.throws(() => parseServeFlags([`--http2-max-streams-per-connection=${bad}`]), { instanceOf: UsageError });
    t.regex(err!.message, /^invalid --http2-max-streams-per-connection ".*": must be a whole number of streams/);
  }
});
