import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';

/**
 * kube's utilnet.SourceIPs: the valid addresses of X-Forwarded-For, then X-Real-Ip unless already listed, then the
 * connection's remote address unless it is the last one already (clients may send the headers: kube logs them all).
 */
export function sourceIPs(req: IncomingMessage): string[] {
  const ips: string[] = [];
  const forwarded = req.headers['x-forwarded-for'];
  for (const part of (Array.isArray(forwarded) ? forwarded.join(',') : forwarded ?? '').split(',')) {
    const ip = canonicalIP(part.trim());
    if (ip) ips.push(ip);
  }
  const realIp = req.headers['x-real-ip'];
  const real = canonicalIP(Array.isArray(realIp) ? realIp[0] ?? '' : realIp ?? '');
  if (real && !ips.includes(real)) ips.push(real);
  const remote = canonicalIP(req.socket.remoteAddress ?? '');
  if (remote && ips[ips.length - 1] !== remote) ips.push(remote);
  return ips;
}

/** The address as Go prints a net.IP (an IPv4-mapped IPv6 address as IPv4), or undefined when it is none. */
function canonicalIP(text: string): string | undefined {
  if (!isIP(text)) return undefined;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(text);
  return mapped ? mapped[1] : text.toLowerCase();
}
