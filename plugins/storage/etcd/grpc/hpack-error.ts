/** A defect in an HPACK header block (RFC 7541); HTTP/2 treats it as a connection error COMPRESSION_ERROR. */
export class HpackError extends Error {
  override readonly name = 'HpackError';
}
