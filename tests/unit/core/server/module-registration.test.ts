import test from 'ava';
import { MemoryKV } from '../../../../plugins/storage/memory/memory-kv.js';
import {
  builtinAdmission,
  createApiServer,
  defineModule,
  jsonCodec,
  memoryStorage,
  namespacesModule,
  sqliteStorage,
  Tokens,
} from '../../../../index.js';

test('a module that needs another one fails createApiServer, naming both', (t) => {
  const err = t.throws(() => createApiServer({ modules: [memoryStorage(), jsonCodec(), builtinAdmission()] }));
  t.is(err?.message, 'kapi: the "builtin-admission" module needs the "namespaces" module, which is not among the server\'s modules');
  t.notThrows(() => createApiServer({ modules: [memoryStorage(), jsonCodec(), namespacesModule(), builtinAdmission()] }));
});

test('a second provider of a single-valued token is refused, naming both modules', (t) => {
  const err = t.throws(() => createApiServer({ modules: [sqliteStorage('/nonexistent/kapi.db'), memoryStorage()] }));
  t.is(
    err?.message,
    'kapi: the "memory-storage" module provides Tokens.KVStore, which the "sqlite-storage" module provides already; ' +
      'a module that replaces it says so: defineModule(name, register, { replaces: [Tokens.KVStore] })',
  );
  const anonymous = t.throws(() => createApiServer({ modules: [memoryStorage(), (c) => c.register(Tokens.KVStore, { useValue: new MemoryKV() })] }));
  t.regex(anonymous?.message ?? '', /^kapi: module #2 \(unnamed\) provides Tokens.KVStore, which the "memory-storage" module provides already/);
});

test('a module that says it replaces a single-valued token replaces it', (t) => {
  const mine = new MemoryKV();
  const replacing = defineModule('my-storage', (c) => c.register(Tokens.KVStore, { useValue: mine }), { replaces: [Tokens.KVStore] });
  const server = createApiServer({ modules: [memoryStorage(), replacing] });
  t.is(server.container.resolve(Tokens.KVStore), mine);
});

test('tokens that take many providers take them from any module; a module name may appear once', (t) => {
  t.notThrows(() => createApiServer({ modules: [memoryStorage(), jsonCodec(), (c) => c.register(Tokens.Codec, { useValue: {} as never })] }));
  const err = t.throws(() => createApiServer({ modules: [memoryStorage(), jsonCodec(), jsonCodec()] }));
  t.is(err?.message, 'kapi: the "json-codec" module is among the server\'s modules twice');
});

test('chained registrations are guarded too', (t) => {
  const chained = defineModule('chained', (c) => {
    c.register(Tokens.Codec, { useValue: {} as never }).register(Tokens.KVStore, { useValue: new MemoryKV() });
  });
  const err = t.throws(() => createApiServer({ modules: [memoryStorage(), chained] }));
  t.regex(err?.message ?? '', /^kapi: the "chained" module provides Tokens.KVStore, which the "memory-storage" module provides already/);
});
