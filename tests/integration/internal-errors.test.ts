/** A bug in kapi (any error that is not an ApiError) is a 500 that names the Audit-Id it is logged under, never JS internals. */
import test from 'ava';
import { Tokens, type Module } from '../../index.js';
import { expectStatus, useTestServer } from '../helpers/test-server.js';

const buggy: Module = (c) => {
  c.register(Tokens.Route, {
    useValue: {
      path: '/buggy',
      handle() {
        // What a bug looks like: a value of an unexpected type reaching code that trusts it.
        return (('x' as unknown) as { find(): void }).find();
      },
    },
  });
  c.register(Tokens.Route, {
    useValue: {
      path: '/deep',
      handle() {
        const recurse = (n: number): number => recurse(n + 1) + 1;
        recurse(0);
      },
    },
  });
};

const server = useTestServer({ storage: 'memory', modules: [buggy] });

test('a TypeError inside kapi is a 500 naming the Audit-Id, without the JavaScript message', async (t) => {
  const res = await server.request('GET', '/buggy');
  const id = String(res.headers['audit-id']);
  expectStatus(t, res, { code: 500, reason: 'InternalError', message: `Internal error occurred: unexpected error in kapi, logged with Audit-Id ${id}` });
  t.notRegex(res.text, /is not a function/);
});

test('a stack overflow inside kapi is a 500 too, not a 400 blaming the input', async (t) => {
  const res = await server.request('GET', '/deep');
  expectStatus(t, res, { code: 500, reason: 'InternalError' });
  t.notRegex(res.text, /call stack/);
});
