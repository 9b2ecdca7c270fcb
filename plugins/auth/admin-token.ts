import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { UserInfo } from '../../core/contracts/authenticator.js';
import { writePrivateFile } from './private-file.js';

/** The admin bearer token kept at `<dataDir>/admin-token` (0600): 32 random bytes as hex, created on first use. */
export async function ensureAdminToken(dataDir: string): Promise<string> {
  const path = join(dataDir, 'admin-token');
  try {
    const existing = (await readFile(path, 'utf8')).trim();
    if (existing) return existing;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const token = randomBytes(32).toString('hex');
  await writePrivateFile(path, token + '\n');
  return token;
}

/** The user the admin token authenticates as: a member of `system:masters`. */
export const adminUser: UserInfo = { username: 'kapi-admin', groups: ['system:masters', 'system:authenticated'] };
