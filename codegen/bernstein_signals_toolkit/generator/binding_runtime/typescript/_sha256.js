/**
 * SHA-256 (FIPS 180-4) and HMAC-SHA256 (RFC 2104) in plain JavaScript, synchronous.
 *
 * The fence marks lines one at a time inside synchronous code (formatSignal's
 * callers), and the core must run in browsers without Node's crypto; WebCrypto's
 * subtle.sign is asynchronous only. Bytes in, bytes out (Uint8Array).
 */

const ROUND = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);
const INITIAL = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];
const BLOCK = 64;
const SCHEDULE = new Int32Array(64); // reused: the functions are synchronous

/** Runs the compression function over every whole 64-byte block of `bytes`. */
function compress(state, bytes, length) {
  const w = SCHEDULE;
  let h0 = state[0], h1 = state[1], h2 = state[2], h3 = state[3];
  let h4 = state[4], h5 = state[5], h6 = state[6], h7 = state[7];
  for (let at = 0; at + BLOCK <= length; at += BLOCK) {
    for (let i = 0; i < 16; i++) {
      const j = at + i * 4;
      w[i] = (bytes[j] << 24) | (bytes[j + 1] << 16) | (bytes[j + 2] << 8) | bytes[j + 3];
    }
    for (let i = 16; i < 64; i++) {
      const x = w[i - 15], y = w[i - 2];
      const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
      const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
      w[i] = (w[i - 16] + s0 + w[i - 7] + s1) | 0;
    }
    let a = h0, b = h1, c = h2, d = h3, e = h4, f = h5, g = h6, h = h7;
    for (let i = 0; i < 64; i++) {
      const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
      const t1 = (h + S1 + ((e & f) ^ (~e & g)) + ROUND[i] + w[i]) | 0;
      const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
      const t2 = (S0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
      h = g; g = f; f = e; e = (d + t1) | 0;
      d = c; c = b; b = a; a = (t1 + t2) | 0;
    }
    h0 = (h0 + a) | 0; h1 = (h1 + b) | 0; h2 = (h2 + c) | 0; h3 = (h3 + d) | 0;
    h4 = (h4 + e) | 0; h5 = (h5 + f) | 0; h6 = (h6 + g) | 0; h7 = (h7 + h) | 0;
  }
  state[0] = h0; state[1] = h1; state[2] = h2; state[3] = h3;
  state[4] = h4; state[5] = h5; state[6] = h6; state[7] = h7;
}

/**
 * The SHA-256 digest (32 bytes) of a message whose first `before` bytes (a multiple of
 * 64) are already compressed into `from`, and whose rest is `message`.
 */
function digestFrom(from, before, message) {
  const padded = (Math.floor((message.length + 8) / BLOCK) + 1) * BLOCK;
  const bytes = new Uint8Array(padded);
  bytes.set(message);
  bytes[message.length] = 0x80;
  const bits = (before + message.length) * 8; // exact below 2**53: lines are far shorter
  const view = new DataView(bytes.buffer);
  view.setUint32(padded - 8, Math.floor(bits / 0x100000000));
  view.setUint32(padded - 4, bits >>> 0);
  const state = from.slice();
  compress(state, bytes, padded);
  const out = new Uint8Array(32);
  const outView = new DataView(out.buffer);
  for (let i = 0; i < 8; i++) outView.setInt32(i * 4, state[i]);
  return out;
}

function bytesOf(value, name) {
  if (!(value instanceof Uint8Array)) throw new TypeError(`${name} must be bytes (a Uint8Array)`);
  return value;
}

/** SHA-256 of `message` (a Uint8Array): 32 bytes. */
export function sha256(message) {
  return digestFrom(new Int32Array(INITIAL), 0, bytesOf(message, "the message"));
}

/**
 * An HMAC-SHA256 key made ready once (its padded blocks compressed), for a key that
 * signs many messages, as a run's key does.
 */
export function hmacKey(key) {
  let block = bytesOf(key, "the key");
  if (block.length > BLOCK) block = sha256(block);
  const pads = { inner: 0x36, outer: 0x5c };
  const ready = {};
  for (const [name, pad] of Object.entries(pads)) {
    const padded = new Uint8Array(BLOCK).fill(pad);
    for (let i = 0; i < block.length; i++) padded[i] ^= block[i];
    const state = new Int32Array(INITIAL);
    compress(state, padded, BLOCK);
    ready[name] = state;
  }
  return Object.freeze(ready);
}

/** HMAC-SHA256 of `message` under a key hmacKey made ready: 32 bytes. */
export function hmacWithKey(ready, message) {
  const inner = digestFrom(ready.inner, BLOCK, bytesOf(message, "the message"));
  return digestFrom(ready.outer, BLOCK, inner);
}

/** HMAC-SHA256 of `message` under `key` (both Uint8Array): 32 bytes. */
export function hmacSha256(key, message) {
  return hmacWithKey(hmacKey(key), message);
}

const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, "0"));

/** Lowercase hex digits of `bytes`. */
export function toHex(bytes) {
  let text = "";
  for (let i = 0; i < bytes.length; i++) text += HEX[bytes[i]];
  return text;
}
