/** The parts of a URL as Go's net/url.Parse splits it (lenient: `not a url` is a path without scheme or host). */
export interface GoUrl {
  scheme: string;
  /** `user[:password]` when the authority has an `@`. */
  user?: string;
  host: string;
  rawQuery: string;
  fragment: string;
}

/** net/url.Parse: the parts, or Go's error text (`parse "…": …`). */
export function parseGoUrl(raw: string): GoUrl | { error: string } {
  const fail = (why: string) => ({ error: `parse ${JSON.stringify(raw)}: ${why}` });
  if (/[\x00-\x1f\x7f]/.test(raw)) return fail('net/url: invalid control character in URL');
  let rest = raw;
  let fragment = '';
  const hash = rest.indexOf('#');
  if (hash >= 0) {
    fragment = rest.slice(hash + 1);
    rest = rest.slice(0, hash);
  }
  let scheme = '';
  const schemeMatch = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(rest);
  if (schemeMatch) {
    scheme = schemeMatch[1].toLowerCase();
    rest = rest.slice(schemeMatch[0].length);
  } else if (/^[^/?]*:/.test(rest) && !rest.startsWith('/')) {
    if (rest.startsWith(':')) return fail('missing protocol scheme');
    return fail('first path segment in URL cannot contain colon');
  }
  let rawQuery = '';
  const question = rest.indexOf('?');
  if (question >= 0) {
    rawQuery = rest.slice(question + 1);
    rest = rest.slice(0, question);
  }
  let user: string | undefined;
  let host = '';
  if (rest.startsWith('//')) {
    const authority = rest.slice(2).split('/')[0];
    const at = authority.lastIndexOf('@');
    if (at >= 0) user = authority.slice(0, at);
    host = authority.slice(at + 1);
    const port = /:([^:\]]*)$/.exec(host);
    if (port && !/^\d*$/.test(port[1])) return fail(`invalid port ${JSON.stringify(port[0])} after host`);
  }
  return { scheme, ...(user !== undefined ? { user } : {}), host, rawQuery, fragment };
}
