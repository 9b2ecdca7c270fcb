import test from 'ava';
import type { ExecutionContext } from 'ava';
import { once } from 'node:events';
import http2 from 'node:http2';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { HpackDecoder, HpackError, encodeHeaderBlock } from '../../../../../../plugins/storage/etcd/grpc/hpack-decoder.js';
import { canonicalHuffmanCode, huffmanDecode } from '../../../../../../plugins/storage/etcd/grpc/hpack-huffman.js';
import { http2Frame } from '../../../../../helpers/http2-frame.js';

const hex = (h: string) => Buffer.from(h.replace(/\s+/g, ''), 'hex');
const huffman = (h: string) => {
  const bytes = hex(h);
  return huffmanDecode(bytes, 0, bytes.length);
};
const isHpackError = { instanceOf: HpackError };

/** Decodes consecutive blocks on one decoder, as on one connection. */
function series(t: ExecutionContext, decoder: HpackDecoder, steps: [block: string, fields: [string, string][]][]) {
  for (const [block, fields] of steps) t.deepEqual(decoder.decode(hex(block)), fields, block);
}

test('canonical generation from the code lengths gives the codes of RFC 7541 Appendix B', (t) => {
  const known: [symbol: number, code: number, bits: number][] = [
    [0, 0x1ff8, 13],
    [1, 0x7fffd8, 23],
    [9, 0xffffea, 24],
    [10, 0x3ffffffc, 30],
    [48, 0x0, 5],
    [32, 0x14, 6],
    [88, 0xfc, 8],
    [60, 0x7ffc, 15],
    [123, 0x7ffe, 15],
    [127, 0xffffffc, 28],
    [128, 0xfffe6, 20],
    [195, 0x7fff1, 19],
    [255, 0x3ffffee, 26],
    [256, 0x3fffffff, 30],
  ];
  for (const [symbol, code, bits] of known) t.deepEqual(canonicalHuffmanCode(symbol), { code, bits }, `symbol ${symbol}`);
  // The code is complete (Kraft sum exactly 1): every bit string is a code or a prefix of one.
  let kraft = 0;
  for (let symbol = 0; symbol <= 256; symbol++) kraft += 2 ** (30 - canonicalHuffmanCode(symbol).bits);
  t.is(kraft, 2 ** 30);
});

test('huffmanDecode decodes the strings of RFC 7541 Appendix C.4 and C.6', (t) => {
  t.is(huffman('f1e3 c2e5 f23a 6ba0 ab90 f4ff'), 'www.example.com');
  t.is(huffman('a8eb 1064 9cbf'), 'no-cache');
  t.is(huffman('25a8 49e9 5ba9 7d7f'), 'custom-key');
  t.is(huffman('25a8 49e9 5bb8 e8b4 bf'), 'custom-value');
  t.is(huffman('6402'), '302');
  t.is(huffman('aec3 771a 4b'), 'private');
  t.is(huffman('d07a be94 1054 d444 a820 0595 040b 8166 e082 a62d 1bff'), 'Mon, 21 Oct 2013 20:13:21 GMT');
  t.is(huffman('9d29 ad17 1863 c78f 0b97 c8e9 ae82 ae43 d3'), 'https://www.example.com');
  t.is(huffman(''), '');
  // Only the given range is read.
  t.is(huffmanDecode(hex('ff a8eb 1064 9cbf 00'), 1, 7), 'no-cache');
});

test('huffmanDecode rejects padding that is not a short EOS prefix, and the EOS symbol', (t) => {
  t.is(huffman('1f'), 'a'); // 'a' = 00011, padded with 111
  t.throws(() => huffman('18'), { ...isHpackError, message: /not a prefix of the EOS/ }); // padded with 000
  t.throws(() => huffman('1e'), { ...isHpackError, message: /not a prefix of the EOS/ }); // padded with 110
  t.throws(() => huffman('1fff'), { ...isHpackError, message: /longer than 7 bits/ }); // 11 bits of padding
  t.throws(() => huffman('ff'), { ...isHpackError, message: /longer than 7 bits/ });
  t.throws(() => huffman('ffff fffc'), { ...isHpackError, message: /EOS symbol/ }); // EOS = 30 ones
  t.throws(() => huffman('1fff ffff ff'), { ...isHpackError, message: /EOS symbol/ }); // 'a', then EOS
});

test('the field representations of RFC 7541 Appendix C.2 index only what they say', (t) => {
  const decoder = new HpackDecoder();
  series(t, decoder, [
    ['400a 6375 7374 6f6d 2d6b 6579 0d63 7573 746f 6d2d 6865 6164 6572', [['custom-key', 'custom-header']]],
    ['040c 2f73 616d 706c 652f 7061 7468', [[':path', '/sample/path']]],
    ['1008 7061 7373 776f 7264 0673 6563 7265 74', [['password', 'secret']]],
    ['82', [[':method', 'GET']]],
    ['be', [['custom-key', 'custom-header']]],
  ]);
  t.throws(() => decoder.decode(hex('bf')), isHpackError); // C.2.2 and C.2.3 added nothing
});

test('RFC 7541 Appendix C.3 and C.4: three requests on one decoder, without and with Huffman', (t) => {
  const first: [string, string][] = [
    [':method', 'GET'],
    [':scheme', 'http'],
    [':path', '/'],
    [':authority', 'www.example.com'],
  ];
  const second: [string, string][] = [...first, ['cache-control', 'no-cache']];
  const third: [string, string][] = [
    [':method', 'GET'],
    [':scheme', 'https'],
    [':path', '/index.html'],
    [':authority', 'www.example.com'],
    ['custom-key', 'custom-value'],
  ];
  const blocks = {
    'C.3': [
      '8286 8441 0f77 7777 2e65 7861 6d70 6c65 2e63 6f6d',
      '8286 84be 5808 6e6f 2d63 6163 6865',
      '8287 85bf 400a 6375 7374 6f6d 2d6b 6579 0c63 7573 746f 6d2d 7661 6c75 65',
    ],
    'C.4': [
      '8286 8441 8cf1 e3c2 e5f2 3a6b a0ab 90f4 ff',
      '8286 84be 5886 a8eb 1064 9cbf',
      '8287 85bf 4088 25a8 49e9 5ba9 7d7f 8925 a849 e95b b8e8 b4bf',
    ],
  };
  for (const [section, [b1, b2, b3]] of Object.entries(blocks)) {
    const decoder = new HpackDecoder();
    series(t, decoder, [
      [b1, first],
      [b2, second],
      [b3, third],
    ]);
    // The dynamic table, newest first, is what the RFC lists after C.3.3 / C.4.3.
    t.deepEqual(
      decoder.decode(hex('be bf c0')),
      [
        ['custom-key', 'custom-value'],
        ['cache-control', 'no-cache'],
        [':authority', 'www.example.com'],
      ],
      section,
    );
    t.throws(() => decoder.decode(hex('c1')), isHpackError, section);
  }
});

test('RFC 7541 Appendix C.5 and C.6: three responses with a 256-octet table, with evictions', (t) => {
  const date21 = 'Mon, 21 Oct 2013 20:13:21 GMT';
  const location = 'https://www.example.com';
  const cookie = 'foo=ASDJKHQKBZXOQWEOPIUAXQWEOIU; max-age=3600; version=1';
  const first: [string, string][] = [
    [':status', '302'],
    ['cache-control', 'private'],
    ['date', date21],
    ['location', location],
  ];
  const second: [string, string][] = [[':status', '307'], ...first.slice(1)];
  const third: [string, string][] = [
    [':status', '200'],
    ['cache-control', 'private'],
    ['date', 'Mon, 21 Oct 2013 20:13:22 GMT'],
    ['location', location],
    ['content-encoding', 'gzip'],
    ['set-cookie', cookie],
  ];
  const blocks = {
    'C.5': [
      '4803 3330 3258 0770 7269 7661 7465 611d 4d6f 6e2c 2032 3120 4f63 7420 3230 3133 2032 303a 3133 3a32 3120 474d' +
        '546e 1768 7474 7073 3a2f 2f77 7777 2e65 7861 6d70 6c65 2e63 6f6d',
      '4803 3330 37c1 c0bf',
      '88c1 611d 4d6f 6e2c 2032 3120 4f63 7420 3230 3133 2032 303a 3133 3a32 3220 474d 54c0 5a04 677a 6970 7738 666f' +
        '6f3d 4153 444a 4b48 514b 425a 584f 5157 454f 5049 5541 5851 5745 4f49 553b 206d 6178 2d61 6765 3d33 3630 303b' +
        '2076 6572 7369 6f6e 3d31',
    ],
    'C.6': [
      '4882 6402 5885 aec3 771a 4b61 96d0 7abe 9410 54d4 44a8 2005 9504 0b81 66e0 82a6 2d1b ff6e 919d 29ad 1718 63c7' +
        '8f0b 97c8 e9ae 82ae 43d3',
      '4883 640e ffc1 c0bf',
      '88c1 6196 d07a be94 1054 d444 a820 0595 040b 8166 e084 a62d 1bff c05a 839b d9ab 77ad 94e7 821d d7f2 e6c7 b335' +
        'dfdf cd5b 3960 d5af 2708 7f36 72c1 ab27 0fb5 291f 9587 3160 65c0 03ed 4ee5 b106 3d50 07',
    ],
  };
  for (const [section, [b1, b2, b3]] of Object.entries(blocks)) {
    const decoder = new HpackDecoder(256);
    series(t, decoder, [[b1, first]]);
    t.deepEqual(decoder.decode(hex('c1')), [[':status', '302']], section); // 4 entries, 222 octets
    series(t, decoder, [[b2, second]]);
    t.deepEqual(decoder.decode(hex('c1')), [['cache-control', 'private']], section); // :status 302 evicted
    series(t, decoder, [[b3, third]]);
    t.deepEqual(
      decoder.decode(hex('be bf c0')),
      [
        ['set-cookie', cookie],
        ['content-encoding', 'gzip'],
        ['date', 'Mon, 21 Oct 2013 20:13:22 GMT'],
      ],
      section,
    );
    t.throws(() => decoder.decode(hex('c1')), isHpackError, section);
  }
});

test('dynamic table size updates: bounded by the maximum, only at the start of a block, and they evict', (t) => {
  const decoder = new HpackDecoder(4096);
  t.throws(() => decoder.decode(hex('3fe2 1f')), { ...isHpackError, message: /4097 exceeds the maximum 4096/ });
  t.deepEqual(decoder.decode(hex('3fe1 1f 82')), [[':method', 'GET']]); // 4096 is fine
  t.throws(() => decoder.decode(hex('82 20')), { ...isHpackError, message: /after a header field/ });

  decoder.decode(hex('4001 6101 62')); // a: b, 34 octets
  t.deepEqual(decoder.decode(hex('be')), [['a', 'b']]);
  t.deepEqual(decoder.decode(hex('3f03')), []); // 34 octets still fit
  t.deepEqual(decoder.decode(hex('be')), [['a', 'b']]);
  decoder.decode(hex('3f02')); // 33 octets: evicted
  t.throws(() => decoder.decode(hex('be')), isHpackError);
  decoder.decode(hex('4001 6101 62')); // too large for the table: not added
  t.throws(() => decoder.decode(hex('be')), isHpackError);
});

test('malformed blocks throw HpackError', (t) => {
  const cases: [what: string, block: string][] = [
    ['index 0', '80'],
    ['index beyond the static table with an empty dynamic table', 'be'],
    ['literal name index beyond the tables', '7f00 0161'],
    ['literal name index 0 of a literal without indexing is a new name, truncated here', '00'],
    ['truncated integer', 'ff'],
    ['truncated integer continuation', 'ff80'],
    ['integer above 2^31', 'ffff ffff ff0f'],
    ['integer with too many continuation octets', 'ff80 8080 8080 00'],
    ['string longer than the block', '0003 6162'],
    ['missing value', '0001 61'],
    ['bad Huffman padding inside a block', '0081 ff01 61'],
  ];
  for (const [what, block] of cases) t.throws(() => new HpackDecoder().decode(hex(block)), isHpackError, what);
});

test('a header list beyond maxListSize throws HpackError: one-octet indexed fields cannot expand a block without bound', (t) => {
  const decoder = new HpackDecoder(4096, 64 * 1024);
  // A literal with incremental indexing puts a 4,000-octet value in the dynamic table (entry size 4,033).
  const value = 'v'.repeat(4000);
  const literal = Buffer.concat([hex('4001 61 7f a1 1e'), Buffer.from(value, 'latin1')]);
  t.deepEqual(decoder.decode(literal), [['a', value]]);
  // Each one-octet reference to it counts 4,033 octets: 15 (60,495) fit, 17 (68,561) do not.
  t.is(decoder.decode(Buffer.alloc(15, 0xbe)).length, 15);
  t.throws(() => decoder.decode(Buffer.alloc(17, 0xbe)), { instanceOf: HpackError, message: 'header list exceeds 65536 bytes' });
});

test('encodeHeaderBlock writes literals without indexing that a decoder reads back, leaving its table alone', (t) => {
  t.deepEqual(encodeHeaderBlock([['a', 'b']]), hex('0001 6101 62'));
  const fields: [string, string][] = [
    [':path', '/etcdserverpb.KV/Range'],
    ['x-long', 'v'.repeat(126)],
    ['x-longer', 'w'.repeat(127)],
    ['x-longest', 'z'.repeat(20000)],
    ['empty', ''],
  ];
  const decoder = new HpackDecoder();
  t.deepEqual(decoder.decode(encodeHeaderBlock(fields)), fields);
  t.throws(() => decoder.decode(hex('be')), isHpackError);
});

// HTTP/2 frame types and flags (RFC 9113 §6) for the nghttp2 test below.
const HEADERS = 1;
const RST_STREAM = 3;
const SETTINGS = 4;
const GOAWAY = 7;
const CONTINUATION = 9;
const END_STREAM = 0x1;
const ACK = 0x1;
const END_HEADERS = 0x4;
const PADDED = 0x8;
const PRIORITY = 0x20;

/** Reads frames until `wanted` header blocks (HEADERS + CONTINUATION payloads) arrived; ACKs the server's SETTINGS. */
function collectHeaderBlocks(socket: net.Socket, wanted: number): Promise<{ streamId: number; block: Buffer }[]> {
  return new Promise((resolve, reject) => {
    const blocks: { streamId: number; block: Buffer }[] = [];
    let parts: Buffer[] = [];
    let pending = Buffer.alloc(0);
    socket.on('error', reject);
    socket.on('close', () => reject(new Error(`connection closed after ${blocks.length} header blocks`)));
    socket.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 9 && pending.length >= 9 + pending.readUIntBE(0, 3)) {
        const [type, flags] = [pending[3], pending[4]];
        const streamId = pending.readUInt32BE(5) & 0x7fffffff;
        let payload = pending.subarray(9, 9 + pending.readUIntBE(0, 3));
        pending = pending.subarray(9 + payload.length);
        if (type === SETTINGS && !(flags & ACK)) socket.write(http2Frame(SETTINGS, ACK, 0, Buffer.alloc(0)));
        if (type === GOAWAY || type === RST_STREAM) reject(new Error(`server sent frame type ${type}`));
        if (type !== HEADERS && type !== CONTINUATION) continue;
        if (type === HEADERS && flags & PADDED) payload = payload.subarray(1, payload.length - payload[0]);
        if (type === HEADERS && flags & PRIORITY) payload = payload.subarray(5);
        parts.push(payload);
        if (!(flags & END_HEADERS)) continue;
        blocks.push({ streamId, block: Buffer.concat(parts) });
        parts = [];
        if (blocks.length === wanted) resolve(blocks);
      }
    });
  });
}

test('decodes the response headers and trailers nghttp2 (Node http2 server) encodes, on one decoder', async (t) => {
  const printable = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join('');
  const repeated = [printable, 'hello world', 'application/grpc', ''];
  // Every third value is new and long (~290 octets, sent twice), so nghttp2's 4096-octet table must evict.
  const values = Array.from({ length: 24 }, (_, i) => (i % 3 === 2 ? `${i}${printable.repeat(3)}` : repeated[i % 4]));
  values.push('y'.repeat(20_000)); // a block larger than one frame: HEADERS + CONTINUATION

  const server = http2.createServer();
  server.on('stream', (stream) => {
    const value = values[((stream.id ?? 0) - 1) / 2];
    // A fixed date: Node would otherwise add the current one.
    stream.respond(
      { ':status': 200, 'content-type': 'application/grpc', 'x-test': value, 'date': 'Thu, 01 Jan 2026 00:00:00 GMT' },
      { waitForTrailers: true },
    );
    stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0', 'grpc-message': value }));
    stream.end(Buffer.from([0, 0, 0, 0, 1, 42]));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const socket = net.connect((server.address() as AddressInfo).port, '127.0.0.1');
  t.teardown(() => {
    socket.destroy();
    server.close();
  });
  await once(socket, 'connect');

  const received = collectHeaderBlocks(socket, 2 * values.length);
  const request = encodeHeaderBlock([
    [':method', 'POST'],
    [':scheme', 'http'],
    [':path', '/x'],
    [':authority', 'localhost'],
    ['content-type', 'application/grpc'],
    ['te', 'trailers'],
  ]);
  socket.write(Buffer.concat([Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'), http2Frame(SETTINGS, 0, 0, Buffer.alloc(0))]));
  for (let i = 0; i < values.length; i++) socket.write(http2Frame(HEADERS, END_HEADERS | END_STREAM, 2 * i + 1, request));
  const blocks = await received;

  const decoder = new HpackDecoder();
  const seen = new Map<number, [string, string][][]>();
  for (const { streamId, block } of blocks) seen.set(streamId, [...(seen.get(streamId) ?? []), decoder.decode(block)]);
  values.forEach((value, i) => {
    const [headers, trailers] = seen.get(2 * i + 1) ?? [];
    t.deepEqual(
      headers,
      [
        [':status', '200'],
        ['content-type', 'application/grpc'],
        ['x-test', value],
        ['date', 'Thu, 01 Jan 2026 00:00:00 GMT'],
      ],
      `response ${i}`,
    );
    t.deepEqual(
      trailers,
      [
        ['grpc-status', '0'],
        ['grpc-message', value],
      ],
      `trailers ${i}`,
    );
  });
  // nghttp2 did compress: Huffman for the first content-type, its dynamic table for repeated responses.
  const firstHeaders = blocks.find((b) => b.streamId === 1)!.block;
  t.false(firstHeaders.includes('application/grpc'));
  t.true(blocks.find((b) => b.streamId === 9)!.block.length < 10); // same value as stream 1
});
