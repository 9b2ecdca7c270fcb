import test from 'ava';
import { GrpcFrames } from '../../../../../../plugins/storage/etcd/grpc/grpc-frames.js';

const frame = (body: string) => {
  const b = Buffer.from(body);
  const head = Buffer.alloc(5);
  head.writeUInt32BE(b.length, 1);
  return Buffer.concat([head, b]);
};

test('messages split across chunks, and several in one chunk, come out whole and in order', (t) => {
  const wire = Buffer.concat([frame('first message'), frame(''), frame('third')]);
  for (const size of [1, 2, 3, 7, wire.length]) {
    const frames = new GrpcFrames();
    const out: string[] = [];
    for (let i = 0; i < wire.length; i += size) {
      frames.push(wire.subarray(i, i + size));
      for (let m = frames.take(); m; m = frames.take()) out.push(m.toString());
    }
    t.deepEqual(out, ['first message', '', 'third'], `chunks of ${size} bytes`);
  }
});

test('a partial message waits for the rest', (t) => {
  const frames = new GrpcFrames();
  frames.push(frame('abcdef').subarray(0, 8));
  t.is(frames.take(), undefined);
});

test('a compressed message (which kapi never asks for) is an error, not garbage', (t) => {
  const frames = new GrpcFrames();
  const f = frame('x');
  f[0] = 1;
  frames.push(f);
  t.throws(() => frames.take(), { message: /compressed/ });
});
