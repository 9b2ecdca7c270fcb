/**
 * What kube's handlers quote of a body they cannot decode (summarizeData): its first 30 bytes, as text when it looks
 * like JSON, else in hex, with ` ...` when there is more.
 */
export function summarizeBody(data: Uint8Array): string {
  if (data.length === 0) return '<empty>';
  const head = Buffer.from(data.buffer, data.byteOffset, Math.min(data.length, 30));
  const text = data[0] === 0x7b ? head.toString('utf8') : head.toString('hex');
  return data.length > 30 ? `${text} ...` : text;
}
