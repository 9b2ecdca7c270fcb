import test from 'ava';
import type { Http2ServerRequest } from 'node:http2';
import { addHeadersDistinct } from '../../../../core/server/http2-requests.js';

test('an HTTP/2 request gets headersDistinct from its raw headers: every value of a repeated header, by lower-case name', (t) => {
  const req = { rawHeaders: [':method', 'GET', 'Impersonate-Group', 'a', 'impersonate-group', 'b', 'accept', 'x'] } as unknown as Http2ServerRequest;
  addHeadersDistinct(req);
  const distinct = (req as unknown as { headersDistinct: Record<string, string[]> }).headersDistinct;
  t.deepEqual({ ...distinct }, { ':method': ['GET'], 'impersonate-group': ['a', 'b'], accept: ['x'] });
});
