// Key generation and hashing, and AES-256-GCM encryption of stored secrets.
import {
  createCipheriv,
  createDecipheriv,
  hash,
  hkdfSync,
  randomBytes,
  randomInt,
  timingSafeEqual,
} from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export function randomBase62(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += BASE62[randomInt(62)];
  return out;
}

export function sha256Hex(value: string | Buffer): string {
  // One-shot hash (Node ≥ 20.12) skips a Hash object per call; it runs on every authenticated request.
  return hash('sha256', value, 'hex');
}

export function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}

/** Encrypts and decrypts small secrets at rest. Format: `v1.<iv>.<tag>.<ciphertext>` (base64url). */
export class SecretBox {
  private readonly key: Buffer;

  constructor(secretKey: string) {
    this.key = Buffer.from(hkdfSync('sha256', secretKey, 'crestwatch', 'secret-box-v1', 32));
  }

  encrypt(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [
      'v1',
      iv.toString('base64url'),
      cipher.getAuthTag().toString('base64url'),
      body.toString('base64url'),
    ].join('.');
  }

  decrypt(sealed: string): string {
    const [version, iv, tag, body] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('Unrecognised sealed value');
    // A full 16-byte tag only: GCM would otherwise accept a truncated one, which is far easier to forge.
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'), {
      authTagLength: 16,
    });
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  }
}

/** Embedded mode: a generated SECRET_KEY kept in the data folder (mode 0600). */
export function loadOrCreateSecretKey(dataDir: string): string {
  const file = path.join(dataDir, 'secret.key');
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const key = randomBytes(32).toString('base64url');
  fs.writeFileSync(file, `${key}\n`, { mode: 0o600, flag: 'wx' });
  return key;
}
