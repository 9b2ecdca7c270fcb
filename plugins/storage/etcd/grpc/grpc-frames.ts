/**
 * gRPC's length-prefixed messages out of a stream's data chunks, which may split or join them: a compression flag
 * (kapi asks for none, so it must be 0), a 4-byte big-endian length, the message.
 */
export class GrpcFrames {
  private chunks: Buffer[] = [];
  private buffered = 0;

  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.buffered += chunk.length;
  }

  /** The next whole message, or undefined until one has fully arrived. */
  take(): Buffer | undefined {
    if (this.buffered < 5) return undefined;
    let head = this.chunks[0]!;
    if (head.length < 5) head = this.join();
    if (head[0] !== 0) throw new Error('etcd sent a compressed gRPC message, which kapi did not ask for');
    const length = head.readUInt32BE(1);
    if (this.buffered < 5 + length) return undefined;
    if (head.length < 5 + length) head = this.join();
    const message = head.subarray(5, 5 + length);
    const rest = head.subarray(5 + length);
    this.buffered -= 5 + length;
    if (rest.length > 0) this.chunks[0] = rest;
    else this.chunks.shift();
    return message;
  }

  private join(): Buffer {
    const all = Buffer.concat(this.chunks, this.buffered);
    this.chunks = [all];
    return all;
  }
}
