/**
 * Delivery signatures (docs/api-decisions.md): lowercase hex HMAC-SHA256 of exactly the body bytes
 * sent, keyed with the secret's UTF-8 text (not its hex-decoded bytes: the reference does the
 * same, and receivers in the wild verify that way).
 */
import { createHash, randomBytes, randomFillSync, type Hash } from 'node:crypto';

const BLOCK = 64; // SHA-256 block size in bytes

interface KeyState {
  inner: Hash;
  outer: Hash;
}

/**
 * HMAC (RFC 2104) from SHA-256 states that already absorbed the padded key: signing then costs
 * two state copies instead of a key setup per delivery, about half of createHmac's time. The
 * states are kept per secret; a webhook has one secret and a server has few webhooks.
 */
const keyStates = new Map<string, KeyState>();

function keyState(secret: string): KeyState {
  let state = keyStates.get(secret);
  if (state) return state;
  let key = Buffer.from(secret, 'utf8');
  if (key.length > BLOCK) key = createHash('sha256').update(key).digest();
  const inner = Buffer.alloc(BLOCK, 0x36);
  const outer = Buffer.alloc(BLOCK, 0x5c);
  for (let i = 0; i < key.length; i++) {
    inner[i] = (key[i] as number) ^ 0x36;
    outer[i] = (key[i] as number) ^ 0x5c;
  }
  if (keyStates.size >= 256) keyStates.clear();
  state = { inner: createHash('sha256').update(inner), outer: createHash('sha256').update(outer) };
  keyStates.set(secret, state);
  return state;
}

export function sign(secret: string, body: Uint8Array | string): string {
  const { inner, outer } = keyState(secret);
  const innerDigest = inner.copy().update(body).digest();
  return outer.copy().update(innerDigest).digest('hex');
}

/** A new webhook secret: 32 random bytes as 64 lowercase hex characters. */
export function generateSecret(): string {
  return randomBytes(32).toString('hex');
}

const pool = Buffer.alloc(6 * 1024);
let poolOffset = pool.length;

/**
 * Ids in the reference's `<prefix>_<epoch ms>_<base 36>` shape (`wh_…`, `del_…`). The random
 * part (48 bits) comes from the CSPRNG so delivery ids stay unique under thousands of deliveries
 * a second; random bytes are drawn in blocks because one system call per id showed up as a
 * large share of the delivery cost.
 */
export function generateId(prefix: 'wh' | 'del', now: number): string {
  if (poolOffset + 6 > pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const n = pool.readUIntBE(poolOffset, 6);
  poolOffset += 6;
  return `${prefix}_${now}_${n.toString(36).padStart(10, '0')}`;
}
