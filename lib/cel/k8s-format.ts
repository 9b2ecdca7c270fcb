/**
 * Kubernetes' format library: `format.named(name)`, `format.<name>()` and `<format>.validate(string)`, which
 * returns apimachinery's validation messages (optional.none() when the string is valid).
 */
import { global, member, type FunctionRegistry } from './functions.js';
import { REGEX_STRING_LENGTH_COST_FACTOR, traversalCost } from './stdlib.js';
import { parseDate, parseRFC3339 } from './time.js';
import { T } from './types.js';
import { OpaqueValue, Optional, actualSize, type Value } from './values.js';
import { isRequestURI } from './k8s-urls.js';

export const FORMAT_TYPE = T.opaque('kubernetes.NamedFormat');

const DNS1123_LABEL = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_SUBDOMAIN = `${DNS1123_LABEL}(\\.${DNS1123_LABEL})*`;
const DNS1035_LABEL = '[a-z]([-a-z0-9]*[a-z0-9])?';
const QNAME = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const LABEL_VALUE = `(${QNAME})?`;

const anchored = (f: string): RegExp => new RegExp(`^${f}$`);

function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (!examples.length) return `${msg} (regex used for validation is '${fmt}')`;
  return `${msg} (e.g. ${examples.map((e) => `'${e}', `).join(' or ')}regex used for validation is '${fmt}')`;
}

const maxLen = (n: number): string => `must be no more than ${n} characters`;

function isDNS1123Label(v: string): string[] {
  const errs: string[] = [];
  if (v.length > 63) errs.push(maxLen(63));
  if (!anchored(DNS1123_LABEL).test(v)) {
    if (anchored(DNS1123_SUBDOMAIN).test(v)) errs.push('must not contain dots');
    else
      errs.push(
        regexError(
          "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character",
          DNS1123_LABEL,
          'my-name',
          '123-abc',
        ),
      );
  }
  return errs;
}

function isDNS1123Subdomain(v: string): string[] {
  const errs: string[] = [];
  if (v.length > 253) errs.push(maxLen(253));
  if (!anchored(DNS1123_SUBDOMAIN).test(v)) {
    errs.push(
      regexError(
        "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character",
        DNS1123_SUBDOMAIN,
        'example.com',
      ),
    );
  }
  return errs;
}

function isDNS1035Label(v: string): string[] {
  const errs: string[] = [];
  if (v.length > 63) errs.push(maxLen(63));
  if (!anchored(DNS1035_LABEL).test(v)) {
    errs.push(
      regexError(
        "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character",
        DNS1035_LABEL,
        'my-name',
        'abc-123',
      ),
    );
  }
  return errs;
}

const QNAME_MSG = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";

function isQualifiedName(v: string): string[] {
  const errs: string[] = [];
  const parts = v.split('/');
  let name: string;
  if (parts.length === 1) name = parts[0];
  else if (parts.length === 2) {
    const prefix = parts[0];
    name = parts[1];
    if (prefix === '') errs.push('prefix part must be non-empty');
    else errs.push(...isDNS1123Subdomain(prefix).map((m) => 'prefix part ' + m));
  } else {
    return [
      'a qualified name ' +
        regexError(QNAME_MSG, QNAME, 'MyName', 'my.name', '123-abc') +
        " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
    ];
  }
  if (name === '') errs.push('name part must be non-empty');
  else if (name.length > 63) errs.push('name part ' + maxLen(63));
  if (!anchored(QNAME).test(name)) errs.push('name part ' + regexError(QNAME_MSG, QNAME, 'MyName', 'my.name', '123-abc'));
  return errs;
}

function isLabelValue(v: string): string[] {
  const errs: string[] = [];
  if (v.length > 63) errs.push(maxLen(63));
  if (!anchored(LABEL_VALUE).test(v)) {
    errs.push(
      regexError(
        "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
        LABEL_VALUE,
        'MyValue',
        'my_value',
        '12345',
      ),
    );
  }
  return errs;
}

/** apimachinery's maskTrailingDash: a generateName prefix may end with '-'. */
function maskTrailingDash(name: string): string {
  return name.length > 1 && name.endsWith('-') ? name.slice(0, -2) + 'a' : name;
}

export class FormatValue extends OpaqueValue {
  readonly typeName = 'kubernetes.NamedFormat';
  constructor(
    readonly name: string,
    readonly validate: (s: string) => string[],
    readonly maxRegexSize: number,
  ) {
    super();
  }
  equals(other: OpaqueValue): boolean {
    return other instanceof FormatValue && other.name === this.name;
  }
}

const UUID = /^[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}$/;

/** The named formats (Kubernetes' ConstantFormats). */
export const NAMED_FORMATS: Record<string, FormatValue> = {
  dns1123Label: new FormatValue('DNS1123Label', (s) => isDNS1123Label(s), 30),
  dns1123Subdomain: new FormatValue('DNS1123Subdomain', (s) => isDNS1123Subdomain(s), 60),
  dns1035Label: new FormatValue('DNS1035Label', (s) => isDNS1035Label(s), 30),
  qualifiedName: new FormatValue('QualifiedName', isQualifiedName, 60),
  dns1123LabelPrefix: new FormatValue('DNS1123LabelPrefix', (s) => isDNS1123Label(maskTrailingDash(s)), 30),
  dns1123SubdomainPrefix: new FormatValue('DNS1123SubdomainPrefix', (s) => isDNS1123Subdomain(maskTrailingDash(s)), 60),
  dns1035LabelPrefix: new FormatValue('DNS1035LabelPrefix', (s) => isDNS1035Label(maskTrailingDash(s)), 30),
  labelValue: new FormatValue('LabelValue', isLabelValue, 40),
  uri: new FormatValue('URI', (s) => (validURI(s) ? [] : ['invalid URI']), 40),
  uuid: new FormatValue('uuid', (s) => (UUID.test(s) ? [] : ['does not match the UUID format']), 36),
  byte: new FormatValue('byte', (s) => (/^([A-Za-z0-9+/]{4})*([A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(s) ? [] : ['invalid base64']), 0),
  date: new FormatValue('date', (s) => (parseDate(s) ? [] : ['invalid date']), 0),
  datetime: new FormatValue('datetime', (s) => (parseRFC3339(s) ? [] : ['invalid datetime']), 0),
};

function validURI(s: string): boolean {
  return isRequestURI(s);
}

export function registerKubernetesFormat(r: FunctionRegistry): void {
  r.add(
    'validate',
    member(
      'format-validate',
      [FORMAT_TYPE, T.string],
      T.optional(T.list(T.string)),
      (a) => {
        const errs = (a[0] as FormatValue).validate(a[1] as string);
        return errs.length ? Optional.of(errs) : Optional.NONE;
      },
      {
        cost: (a) => traversalCost(1 + actualSize(a[1])) * Math.ceil((a[0] as FormatValue).maxRegexSize * REGEX_STRING_LENGTH_COST_FACTOR),
      },
    ),
  );
  r.add(
    'format.named',
    global('format-named', [T.string], T.optional(FORMAT_TYPE), (a) => {
      const f = NAMED_FORMATS[a[0] as string];
      return f ? Optional.of(f as Value) : Optional.NONE;
    }),
  );
  for (const [name, f] of Object.entries(NAMED_FORMATS)) r.add(`format.${name}`, global(`format-${name}`, [], FORMAT_TYPE, () => f));
}
