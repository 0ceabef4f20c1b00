/**
 * Delivery signatures, secrets and ids (docs/webhooks.md, "Signing").
 * - `taskdown` (the default, the seed's scheme): `X-Service-Signature` is the lowercase hex
 *   HMAC-SHA256 of exactly the body bytes sent, keyed with the secret's UTF-8 text (not its
 *   hex-decoded bytes, as the reference does and receivers in the wild verify).
 * - `standard` (Standard Webhooks): `webhook-signature` is `v1,` + base64 HMAC-SHA256 of
 *   `<webhook-id>.<webhook-timestamp>.<body>`, keyed with the base64-decoded part of the secret
 *   after `whsec_`, as the `standardwebhooks` libraries verify it.
 * During a secret rotation both the new and the previous secret sign every delivery.
 */
import { createHmac, randomBytes, randomFillSync } from 'node:crypto';
import type { SigningScheme } from './types.js';

export function signTaskdown(secret: string, body: string): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}

const STANDARD_PREFIX = 'whsec_';

/** The HMAC key of a secret under the Standard Webhooks scheme. */
export function standardKey(secret: string): Buffer {
  const encoded = secret.startsWith(STANDARD_PREFIX) ? secret.slice(STANDARD_PREFIX.length) : secret;
  return Buffer.from(encoded, 'base64');
}

/**
 * Whether a secret can key Standard Webhooks signatures: strict base64 (optionally after
 * `whsec_`) of 24 to 64 bytes, the range the specification asks for.
 */
export function isStandardSecret(secret: string): boolean {
  const encoded = secret.startsWith(STANDARD_PREFIX) ? secret.slice(STANDARD_PREFIX.length) : secret;
  if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(encoded)) return false;
  const bytes = Buffer.from(encoded, 'base64').length;
  return bytes >= 24 && bytes <= 64;
}

export function signStandard(secret: string, id: string, timestamp: number, body: string): string {
  const mac = createHmac('sha256', standardKey(secret)).update(`${id}.${timestamp}.${body}`);
  return `v1,${mac.digest('base64')}`;
}

/**
 * A new secret: 32 random bytes, as 64 lowercase hex characters for the `taskdown` scheme, as
 * `whsec_` + base64 for the standard one.
 */
export function generateSecret(scheme: SigningScheme): string {
  const bytes = randomBytes(32);
  return scheme === 'standard' ? `${STANDARD_PREFIX}${bytes.toString('base64')}` : bytes.toString('hex');
}

/** What signs a delivery: the webhook's scheme and secrets, and the delivery's identity. */
export interface SigningInput {
  scheme: SigningScheme;
  secret: string;
  /** The secret before a rotation, while its grace period lasts. */
  previousSecret?: string;
  deliveryId: string;
  event: string;
  body: string;
  /** Epoch milliseconds of the attempt. */
  now: number;
}

/** The headers of one attempt (without Content-Type). */
export function signatureHeaders(input: SigningInput): Record<string, string> {
  const { scheme, secret, previousSecret, deliveryId, event, body } = input;
  if (scheme === 'standard') {
    const timestamp = Math.floor(input.now / 1000);
    let signature = signStandard(secret, deliveryId, timestamp, body);
    if (previousSecret) signature += ` ${signStandard(previousSecret, deliveryId, timestamp, body)}`;
    return {
      'webhook-id': deliveryId,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signature,
      'X-Service-Event': event,
    };
  }
  const headers: Record<string, string> = {
    'X-Service-Event': event,
    'X-Service-Signature': signTaskdown(secret, body),
    'X-Service-Delivery-ID': deliveryId,
  };
  if (previousSecret) headers['X-Service-Signature-Previous'] = signTaskdown(previousSecret, body);
  return headers;
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
