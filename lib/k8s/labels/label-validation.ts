/**
 * Label key and value checks with apimachinery's texts (validation.IsQualifiedName, validation.IsValidLabelValue).
 * Each returns the list of problems; empty means valid.
 */

const nameFmt = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const nameMsg = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const valueFmt = `(${nameFmt})?`;
const valueMsg =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const dnsLabelFmt = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const subdomainFmt = `${dnsLabelFmt}(\\.${dnsLabelFmt})*`;
const subdomainMsg =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";

const nameRe = new RegExp(`^${nameFmt}$`);
const valueRe = new RegExp(`^${valueFmt}$`);
const subdomainRe = new RegExp(`^${subdomainFmt}$`);

function regexError(msg: string, re: string, ...examples: string[]): string {
  const eg = examples.map((e, i) => `${i > 0 ? ' or ' : ''}'${e}', `).join('');
  return `${msg} (e.g. ${eg}regex used for validation is '${re}')`;
}

function maxLenError(max: number): string {
  return `must be no more than ${max} bytes`;
}

function bytes(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}

function subdomainErrors(value: string): string[] {
  const errs: string[] = [];
  if (bytes(value) > 253) errs.push(maxLenError(253));
  if (!subdomainRe.test(value)) errs.push(regexError(subdomainMsg, subdomainFmt, 'example.com'));
  return errs;
}

/** A label key: `[prefix/]name`, the prefix a DNS subdomain, the name at most 63 bytes. */
export function labelKeyErrors(key: string): string[] {
  const parts = key.split('/');
  if (parts.length > 2) {
    return [
      `a valid label key ${regexError(nameMsg, nameFmt, 'MyName', 'my.name', '123-abc')} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ];
  }
  const errs: string[] = [];
  const name = parts[parts.length - 1];
  if (parts.length === 2) {
    const prefix = parts[0];
    if (prefix === '') errs.push('prefix part must be non-empty');
    else errs.push(...subdomainErrors(prefix).map((e) => `prefix part ${e}`));
  }
  if (name === '') errs.push('name part must be non-empty');
  else if (bytes(name) > 63) errs.push(`name part ${maxLenError(63)}`);
  if (!nameRe.test(name)) errs.push(`name part ${regexError(nameMsg, nameFmt, 'MyName', 'my.name', '123-abc')}`);
  return errs;
}

/** A label value: empty, or at most 63 bytes of name characters. */
export function labelValueErrors(value: string): string[] {
  const errs: string[] = [];
  if (bytes(value) > 63) errs.push(maxLenError(63));
  if (!valueRe.test(value)) errs.push(regexError(valueMsg, valueFmt, 'MyValue', 'my_value', '12345'));
  return errs;
}
