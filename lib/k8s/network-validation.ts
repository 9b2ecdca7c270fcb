import { isIP } from 'node:net';
import { fieldErrors, type FieldError } from './field-errors.js';
import { isDNS1123Label, isQualifiedName } from './names.js';

/*
 * apimachinery's and kube's checks of network values (pkg/util/validation, core validation), with their texts: IPs,
 * ports and port names, and the special IPs an endpoint may not be.
 */

/** Node reads IPv4 addresses with leading zeros as invalid; Go's ParseIPSloppy (which kube uses) reads them as decimal. */
export function parseIPv4(value: string): number | undefined {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(value);
  if (!m) return undefined;
  const octets = m.slice(1).map(Number);
  if (octets.some((o) => o > 255)) return undefined;
  return ((octets[0]! << 24) >>> 0) + (octets[1]! << 16) + (octets[2]! << 8) + octets[3]!;
}

export function formatIPv4(n: number): string {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

/** Whether the value parses as an IP address (IPv4, also with leading zeros as Go's sloppy parser, or IPv6). */
function isIPAddress(value: string): boolean {
  return parseIPv4(value) !== undefined || isIP(value) === 6;
}

/** apimachinery's IsValidIP. */
export function ipCauses(field: string, value: string): FieldError[] {
  return isIPAddress(value) ? [] : [fieldErrors.invalid(field, value, 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)')];
}

/** kube's ValidateNonSpecialIP: what an endpoint or external IP may not be. */
export function nonSpecialIPCauses(field: string, value: string): FieldError[] {
  const v4 = parseIPv4(value);
  const v6 = v4 === undefined && isIP(value) === 6 ? value.toLowerCase() : undefined;
  if (v4 === undefined && v6 === undefined) return [fieldErrors.invalid(field, value, 'must be a valid IP address')];
  const causes: FieldError[] = [];
  const in4 = (net: number, bits: number) => v4 !== undefined && v4 >>> (32 - bits) === net >>> (32 - bits);
  if (v4 === 0 || v6 === '::') causes.push(fieldErrors.invalid(field, value, `may not be unspecified (${value})`));
  if (in4(0x7f000000, 8) || v6 === '::1') causes.push(fieldErrors.invalid(field, value, 'may not be in the loopback range (127.0.0.0/8, ::1/128)'));
  if (in4(0xa9fe0000, 16) || /^fe[89ab]/.test(v6 ?? '')) causes.push(fieldErrors.invalid(field, value, 'may not be in the link-local range (169.254.0.0/16, fe80::/10)'));
  if (in4(0xe0000000, 24) || /^ff02:/.test(v6 ?? '')) {
    causes.push(fieldErrors.invalid(field, value, 'may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)'));
  }
  return causes;
}

/** apimachinery's IsValidPortNum. */
export function portNumProblems(port: number): string[] {
  return port >= 1 && port <= 65535 ? [] : ['must be between 1 and 65535, inclusive'];
}

/** apimachinery's IsValidPortName: an IANA_SVC_NAME. */
export function portNameProblems(name: string): string[] {
  const problems: string[] = [];
  if (name.length > 15) problems.push('must be no more than 15 characters');
  if (!/^[-a-z0-9]+$/.test(name)) problems.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!/[a-z]/.test(name)) problems.push('must contain at least one letter (a-z)');
  if (name.includes('--')) problems.push('must not contain consecutive hyphens (-)');
  if (name.startsWith('-') || name.endsWith('-')) problems.push('must not begin or end with a hyphen (-)');
  return problems;
}

/** kube's ValidatePortNumOrName: a number in range, or a port name. */
export function portNumOrNameCauses(field: string, port: number | string): FieldError[] {
  const problems = typeof port === 'number' ? portNumProblems(port) : portNameProblems(port);
  return problems.map((msg) => fieldErrors.invalid(field, port, msg));
}

/** kube's ValidateDNS1123Label as a field check. */
export function dns1123LabelCauses(field: string, value: string): FieldError[] {
  return isDNS1123Label(value).map((msg) => fieldErrors.invalid(field, value, msg));
}

/** kube's ValidateQualifiedName as a field check (e.g. an appProtocol). */
export function qualifiedNameCauses(field: string, value: string): FieldError[] {
  return isQualifiedName(value).map((msg) => fieldErrors.invalid(field, value, msg));
}

/** The protocols a Service or endpoint port may use, sorted as kube lists them. */
export const portProtocols = ['SCTP', 'TCP', 'UDP'];
