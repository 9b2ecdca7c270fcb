import { readFile } from 'node:fs/promises';
import { parseCsv } from '../../lib/go/csv.js';
import type { StaticToken } from './static-token-authenticator.js';

/** A token file kube-apiserver would refuse to start with. */
export class TokenFileError extends Error {
  override readonly name = 'TokenFileError';
}

/**
 * The tokens of a kube-apiserver `--token-auth-file`: CSV records `token,user,uid[,"group1,group2"]`, as kube reads
 * them (records with an empty token are skipped; of a token given twice the last record wins). Throws
 * `TokenFileError` with kube's message, naming the line, for a file kube refuses.
 */
export async function readTokenFile(path: string): Promise<StaticToken[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new TokenFileError(`cannot read token file '${path}': ${(err as Error).message}`);
  }
  return parseTokenFile(path, text);
}

export function parseTokenFile(path: string, text: string): StaticToken[] {
  let records;
  try {
    records = parseCsv(text);
  } catch (err) {
    throw new TokenFileError(`token file '${path}': ${(err as Error).message}`);
  }
  const byToken = new Map<string, StaticToken>();
  for (const { fields, line } of records) {
    if (fields.length < 3) {
      throw new TokenFileError(`token file '${path}' must have at least 3 columns (token, user name, user uid), found ${fields.length} (line ${line})`);
    }
    const [token, username, uid, groups] = fields as [string, string, string, string | undefined];
    if (token === '') continue;
    byToken.delete(token);
    byToken.set(token, { token, user: { username, uid, groups: groups === undefined ? [] : groups.split(',') } });
  }
  return [...byToken.values()];
}
