import test from 'ava';
import { http2Limits } from '../../../../core/server/secure-server.js';

test("HTTP/2 limits are kube-apiserver's: 100 streams unless set, 256 KiB frames and stream windows, the connection's window for every stream", (t) => {
  t.deepEqual(http2Limits(0), { settings: { maxConcurrentStreams: 100, initialWindowSize: 262_144, maxFrameSize: 262_144 }, connectionWindowBytes: 100 * 262_144 });
  t.deepEqual(http2Limits(1000).settings.maxConcurrentStreams, 1000);
  t.is(http2Limits(1000).connectionWindowBytes, 1000 * 262_144);
  // HTTP/2 windows are at most 2^31 - 1 bytes
  t.is(http2Limits(100_000).connectionWindowBytes, 2 ** 31 - 1);
});
