import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { writePrivateFile } from './private-file.js';

/** The size of the RSA key kapi generates (kubeadm's service-account key is RSA 2048 too). */
const generatedKeyBits = 2048;

/**
 * The RSA key ServiceAccount tokens are signed with, kept at `path` (PKCS#8 PEM, mode 0600): read when it exists,
 * generated and written on first use.
 */
export async function ensureServiceAccountSigningKey(path: string): Promise<KeyObject> {
  const existing = await readIfExists(path);
  if (existing !== undefined) return readSigningKey(path, existing);
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: generatedKeyBits });
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  await writePrivateFile(path, privateKey.export({ type: 'pkcs8', format: 'pem' }) as string);
  return privateKey;
}

/** `--service-account-signing-key-file`: a PEM RSA or ECDSA private key. Throws an Error naming the file otherwise. */
export async function readServiceAccountSigningKey(path: string): Promise<KeyObject> {
  return readSigningKey(path, await readFile(path, 'utf8'));
}

function readSigningKey(path: string, pem: string): KeyObject {
  try {
    const key = createPrivateKey(pem);
    if (key.asymmetricKeyType === 'rsa' || key.asymmetricKeyType === 'ec') return key;
  } catch {
    // reported below
  }
  throw new Error(`failed to parse service-account issuer key file "${path}": not an RSA or ECDSA private key in PEM`);
}

const pemBlock = /-----BEGIN ([A-Z ]+)-----[\s\S]*?-----END \1-----/g;
const keyBlocks = new Set(['PUBLIC KEY', 'RSA PUBLIC KEY', 'PRIVATE KEY', 'RSA PRIVATE KEY', 'EC PRIVATE KEY']);

/**
 * `--service-account-key-file`: the public keys of a PEM file of RSA or ECDSA public or private keys (kube's
 * keyutil.PublicKeysFromFile; other blocks are skipped). Throws when the file holds none.
 */
export async function readServiceAccountPublicKeys(path: string): Promise<KeyObject[]> {
  const text = await readFile(path, 'utf8');
  const keys: KeyObject[] = [];
  for (const m of text.matchAll(pemBlock)) {
    if (!keyBlocks.has(m[1]!)) continue;
    try {
      const key = createPublicKey(m[0]);
      if (key.asymmetricKeyType === 'rsa' || key.asymmetricKeyType === 'ec') keys.push(key);
    } catch {
      // a block that does not parse is skipped, as kube skips it
    }
  }
  if (keys.length === 0) throw new Error(`error reading public key file ${path}: data does not contain any valid RSA or ECDSA public keys`);
  return keys;
}

async function readIfExists(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}
