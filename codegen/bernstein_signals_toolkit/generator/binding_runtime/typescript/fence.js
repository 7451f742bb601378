/**
 * Fenced signals (spec/fenced-signals.md): a line counts as a signal only when it
 * carries a mark made with the run's key, so output an adapter did not mean as a
 * signal (a file an agent prints) cannot end or steer a run.
 *
 * The same bytes as the Python binding's fence module: the mark is HMAC-SHA256 over
 * MAC_DOMAIN, the run, the sequence number, the kind and the canonical payload text
 * (formatSignal's writer), in pure JavaScript (_sha256.js), so the core runs in
 * browsers too. takeProcessKey takes the environment and a descriptor reader as
 * arguments: the package imports no Node module and touches no global process.
 */
import { dumpCanonical, isPlainObject } from "./_json.js";
import { lineText, parsePrefixed } from "./_lines.js";
import { hmacKey, hmacWithKey, toHex } from "./_sha256.js";
import { typeOf } from "./_shown.js";
import { SignalFormatError } from "./errors.js";
import {
  KEY_FD_VARIABLE,
  KEY_VARIABLE,
  KIND_NOT_ALLOWED,
  MAC_DOMAIN,
  MARK_FIELD,
  MAX_SEQUENCE,
  MAX_SEQUENCE_STEP,
  REPLAYED_SIGNAL,
  RUN_HEX_DIGITS,
  SECRET_HEX_DIGITS,
  UNAUTHENTICATED_SIGNAL,
} from "./fence_rules.js";
import { formatSignal } from "./formatting.js";
import { SIGNAL_KINDS, SIGNAL_PREFIX } from "./kinds.js";

const KINDS = new Set(SIGNAL_KINDS);
/** A kind-like word, safe to quote: upper case, so never a key's (lower-case) digits. */
const KIND_WORD = /^[A-Z][A-Z_]{0,31}$/;

const KEY_SHAPE = new RegExp(`^[0-9a-f]{${RUN_HEX_DIGITS}}:[0-9a-f]{${SECRET_HEX_DIGITS}}\n?$`);
const NOT_A_KEY = `not a signal key: expected ${RUN_HEX_DIGITS} hex digits, ':', ${SECRET_HEX_DIGITS} hex digits`;
/** A mark's shape; 16 digits hold every sequence number up to MAX_SEQUENCE. */
const MARK_SHAPE = new RegExp(`^([0-9a-f]{${RUN_HEX_DIGITS}})\\.(0|[1-9][0-9]{0,15})\\.([0-9a-f]{64})$`);
const ENCODER = new TextEncoder();
const SECRETS = new WeakMap(); // SignalKey -> {secret, mac}: never a property, so never shown
const MARK_MEMBER = `{${JSON.stringify(MARK_FIELD)}:`;
const MAKING = Symbol("SignalKey");
const INSPECT = Symbol.for("nodejs.util.inspect.custom");

/** The fence cannot do what was asked: `code` says why; the message never holds a key. */
export class FenceError extends Error {
  constructor(message, code) {
    super(message);
    this.name = "FenceError";
    this.code = code;
  }
}

function hexBytes(hex) {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}

/**
 * A run's key: `run` (the nonce, not secret) and a secret that no string, JSON,
 * inspection or error of this object shows; text() is the one way out, for handing
 * the key to an adapter.
 */
export class SignalKey {
  constructor(token, run, secret) {
    if (token !== MAKING) throw new TypeError("make a SignalKey with SignalKey.generate() or SignalKey.parse(text)");
    this.run = run;
    SECRETS.set(this, { secret, mac: hmacKey(secret) });
    Object.freeze(this);
  }

  /**
   * A fresh random key from `source.getRandomValues` (Web Crypto's; default
   * globalThis.crypto, which Node 18 lacks in modules: pass node:crypto's webcrypto).
   * No source: a FenceError, never a weak key.
   */
  static generate(source = globalThis.crypto) {
    if (typeof source?.getRandomValues !== "function") {
      throw new FenceError(
        "no secure random source: globalThis.crypto.getRandomValues is missing (on Node 18, pass node:crypto's webcrypto to SignalKey.generate)",
        "no-random",
      );
    }
    const bytes = new Uint8Array(RUN_HEX_DIGITS / 2 + SECRET_HEX_DIGITS / 2);
    source.getRandomValues(bytes);
    return new SignalKey(MAKING, toHex(bytes.subarray(0, RUN_HEX_DIGITS / 2)), bytes.slice(RUN_HEX_DIGITS / 2));
  }

  /**
   * The key of a key text `<run>:<secret>` (one trailing "\n" allowed): a TypeError for
   * what is no string, a FenceError that never quotes the text for any other string.
   */
  static parse(text) {
    if (typeof text !== "string") throw new TypeError(`a signal key text is a string, not ${typeof text}`);
    if (!KEY_SHAPE.test(text)) throw new FenceError(NOT_A_KEY, "bad-key");
    return new SignalKey(MAKING, text.slice(0, RUN_HEX_DIGITS), hexBytes(text.slice(RUN_HEX_DIGITS + 1, RUN_HEX_DIGITS + 1 + SECRET_HEX_DIGITS)));
  }

  /** The key text, to hand to an adapter (in KEY_VARIABLE or on an inherited fd). */
  text() {
    return `${this.run}:${toHex(SECRETS.get(this).secret)}`;
  }

  toString() {
    return `SignalKey(run=${this.run})`;
  }

  toJSON() {
    return { run: this.run };
  }

  [INSPECT]() {
    return this.toString();
  }
}

const DESCRIPTOR = /^[3-9]$/;

/** [where the key text came from, the text]; the descriptor wins when both are given. */
function keyText(fdText, text, readDescriptor) {
  if (fdText === undefined) return [KEY_VARIABLE, text ?? ""];
  if (typeof fdText !== "string" || !DESCRIPTOR.test(fdText)) {
    throw new FenceError(`${KEY_FD_VARIABLE} is not a descriptor number 3..9`, "bad-key");
  }
  if (typeof readDescriptor !== "function") {
    throw new FenceError(`${KEY_FD_VARIABLE} names fd ${fdText}, but no readDescriptor was given to read it`, "bad-key");
  }
  let read;
  try {
    read = readDescriptor(Number(fdText));
  } catch (error) {
    if (error instanceof FenceError) throw error; // the reader's own words (node.js: not a socket)
    const code = error?.code; // quoted only when it is an errno name (EAGAIN), never a key
    const why = typeof code === "string" && /^E[A-Z0-9]{1,15}$/.test(code) ? code : "unreadable";
    throw new FenceError(`${KEY_FD_VARIABLE} names fd ${fdText}, which cannot be read (${why})`, "bad-key");
  }
  return [`the text on fd ${fdText} (${KEY_FD_VARIABLE})`, typeof read === "string" ? read : ""];
}

/**
 * The start-up step of an adapter: the run's key from `env` (Node: its process's env),
 * from the descriptor KEY_FD_VARIABLE names (preferred; `readDescriptor(fd)` reads it to
 * its end and closes it) or from KEY_VARIABLE. Both variables are removed from `env`
 * whatever they hold, so nothing started later inherits them: call it once, first thing.
 * Neither variable set: null. Set, but no key could be taken (a bad text, a descriptor
 * that cannot be read): a FenceError (code "bad-key", "no signal key: ...", never the
 * value), for the adapter must not go on writing lines its orchestrator would refuse; the
 * Node entry's takeNodeProcessKey (node.js) turns it into a FAILED and exit status
 * KEY_REFUSED_STATUS.
 */
export function takeProcessKey(env, options = {}) {
  if (env === null || typeof env !== "object") {
    throw new TypeError("takeProcessKey reads an environment object (a map of variable names to text)");
  }
  const fdText = env[KEY_FD_VARIABLE];
  const text = env[KEY_VARIABLE];
  delete env[KEY_FD_VARIABLE];
  delete env[KEY_VARIABLE];
  if (fdText === undefined && text === undefined) return null;
  try {
    const [source, found] = keyText(fdText, text, options?.readDescriptor);
    if (!KEY_SHAPE.test(found)) throw new FenceError(`${source} is ${NOT_A_KEY}`, "bad-key");
    return SignalKey.parse(found);
  } catch (error) {
    if (!(error instanceof FenceError)) throw error;
    throw new FenceError(`no signal key: ${error.message}`, "bad-key");
  }
}

function secretOf(key, who) {
  const secret = key instanceof SignalKey ? SECRETS.get(key) : undefined;
  if (secret === undefined) throw new TypeError(`${who} takes a SignalKey, not ${typeOf(key)}`);
  return secret;
}

/** The MAC's hex digits: HMAC-SHA256 over the domain, run, seq, kind and payload text. */
function macOf(key, seq, kind, payloadText) {
  const message = `${MAC_DOMAIN}\n${key.run}\n${seq}\n${kind}\n${payloadText}`;
  return toHex(hmacWithKey(SECRETS.get(key).mac, ENCODER.encode(message)));
}

/** The payload's canonical text without the mark: "" when it has no member (as {}). */
function payloadText(payload) {
  return Object.keys(payload).some((key) => payload[key] !== undefined) ? dumpCanonical(payload) : "";
}

/**
 * The canonical JSON of `payload` plus the mark, from `text`, its canonical text without
 * it: the mark's member goes first unless a key sorts below it (UTF-16 order, as the
 * canonical writer sorts), and then the object is written again.
 */
function jsonWithMark(mark, payload, text) {
  const member = `${MARK_MEMBER}${JSON.stringify(mark)}`;
  if (text === "") return `${member}}`;
  for (const name of Object.keys(payload)) {
    if (name < MARK_FIELD && payload[name] !== undefined) {
      const marked = { ...payload };
      Object.defineProperty(marked, MARK_FIELD, { value: mark, enumerable: true, writable: true, configurable: true });
      return dumpCanonical(marked);
    }
  }
  return `${member},${text.slice(1)}`;
}

/** Writes fenced lines under one key, counting the sequence number from 1. */
export class SignalMarker {
  constructor(key) {
    secretOf(key, "SignalMarker");
    this.key = key;
    this._seq = 0;
  }

  /** The sequence number of the last line marked (0 before the first). */
  get seq() {
    return this._seq;
  }

  /**
   * The fenced line of `kind` and `payload` (formatSignal's line with MARK_FIELD added):
   * throws what formatSignal throws, and a FenceError when the payload already holds the
   * mark field or the sequence numbers are spent. A failed call uses no number.
   */
  mark(kind, payload = null, options = {}) {
    const absent = payload === null || payload === undefined;
    // formatSignal's own messages quote a bad kind or payload: a key text passed here must not show
    if (typeof kind !== "string" || !KINDS.has(kind)) {
      const named = typeof kind === "string" && KIND_WORD.test(kind) ? JSON.stringify(kind) : typeOf(kind);
      throw new SignalFormatError(`unknown signal kind ${named}`, "unknown-kind");
    }
    if (!absent && !isPlainObject(payload)) {
      throw new SignalFormatError(`a signal payload is a plain object, not ${typeOf(payload)}`, "payload-type");
    }
    if (!absent && isPlainObject(payload) && Object.hasOwn(payload, MARK_FIELD)) {
      throw new FenceError(`the payload already holds ${MARK_FIELD}, the fence's own member`, "marked-payload");
    }
    if (this._seq >= MAX_SEQUENCE) {
      throw new FenceError(`the sequence numbers of this run are spent (${MAX_SEQUENCE})`, "sequence-spent");
    }
    const line = formatSignal(kind, payload, options); // its errors before any number is taken
    const written = absent ? "" : line.slice(SIGNAL_PREFIX.length + kind.length + 1);
    const text = written === "{}" ? "" : written;
    const seq = this._seq + 1;
    const mark = `${this.key.run}.${seq}.${macOf(this.key, seq, kind, text)}`;
    this._seq = seq;
    return `${SIGNAL_PREFIX}${kind} ${jsonWithMark(mark, absent ? {} : payload, text)}`;
  }
}

function verdict(signal, code, problem, seq) {
  return Object.freeze({ signal, code, problem, seq, lineNo: null });
}

const PLAIN = verdict(null, null, null, null);

function unauthenticated(kind, why) {
  return verdict(null, UNAUTHENTICATED_SIGNAL, `unauthenticated ${kind} signal: ${why}`, null);
}

/** The allow-list as a sorted, frozen array of known kinds, or null. */
function allowedKinds(kinds) {
  if (kinds === undefined || kinds === null) return null;
  if (typeof kinds === "string" || typeof kinds[Symbol.iterator] !== "function") {
    throw new TypeError('allowKinds is a collection of kinds (["COMPLETED", "FAILED"]), not one string');
  }
  const allowed = new Set();
  for (const kind of kinds) {
    if (typeof kind !== "string" || !KINDS.has(kind)) {
      const named = typeof kind === "string" && KIND_WORD.test(kind) ? JSON.stringify(kind) : typeOf(kind);
      throw new RangeError(`allowKinds: ${named} is not a signal kind (one of ${SIGNAL_KINDS.join(", ")})`);
    }
    allowed.add(kind);
  }
  return Object.freeze([...allowed].sort());
}

/**
 * Checks one run's stream line by line, in order: it keeps the last sequence number
 * accepted from the key, so a number at or below it is a replay. With no key (null),
 * only the allow-list applies. Never throws on a line.
 */
export class FenceVerifier {
  constructor(key, options = {}) {
    if (key !== null && key !== undefined) secretOf(key, "FenceVerifier");
    this.key = key ?? null;
    this.allowKinds = allowedKinds(options?.allowKinds);
    this._allowed = this.allowKinds === null ? null : new Set(this.allowKinds);
    this._last = 0;
  }

  /** The last sequence number taken (0 before the first). */
  get lastSeq() {
    return this._last;
  }

  /**
   * The verdict on one line (a string or UTF-8 bytes; one trailing "\n" or "\r\n" is
   * tolerated): `signal` set when it is accepted (MARK_FIELD taken out of its payload),
   * `code` and `problem` when it is a signal line the fence refuses, both null for plain
   * output. `lineNo` is null here; the readers set it.
   */
  check(line) {
    let text = lineText(line);
    if (text === null || !text.startsWith(SIGNAL_PREFIX)) return PLAIN;
    if (text.endsWith("\n")) text = text.slice(0, text.endsWith("\r\n") ? -2 : -1);
    const signal = parsePrefixed(text);
    return signal === null ? PLAIN : this._verify(signal);
  }

  /**
   * The verdict on a signal parsed strictly from its whole line (check's, the readers').
   * Not public: a lenient parse strips the line, so its rawLine is not what was read.
   */
  _verify(signal) {
    let accepted = signal;
    let seq = null;
    if (this.key !== null) {
      const found = this._authentic(signal);
      if (found.signal === null) return found;
      ({ signal: accepted, seq } = found);
    }
    if (this._allowed !== null && !this._allowed.has(signal.kind)) {
      const allowed = this.allowKinds.length > 0 ? this.allowKinds.join(", ") : "none";
      return verdict(null, KIND_NOT_ALLOWED, `${signal.kind} signal not allowed in this run (allowed: ${allowed})`, seq);
    }
    return verdict(accepted, null, null, seq);
  }

  /** Authenticated and not replayed: the signal without its mark (the seq is taken). */
  _authentic(signal) {
    const { kind, payload } = signal;
    if (!Object.hasOwn(payload, MARK_FIELD)) return unauthenticated(kind, "not marked");
    const mark = payload[MARK_FIELD];
    const parts = typeof mark === "string" ? MARK_SHAPE.exec(mark) : null;
    if (parts === null) return unauthenticated(kind, "bad mark");
    const [, run, seqText, mac] = parts;
    if (run !== this.key.run) return unauthenticated(kind, "marked for another run");
    const seq = Number(seqText); // 16 digits: past MAX_SEQUENCE stays past it when rounded
    if (seq < 1 || seq > MAX_SEQUENCE) return unauthenticated(kind, "bad mark");
    const rest = {};
    for (const name of Object.keys(payload)) {
      if (name !== MARK_FIELD) {
        Object.defineProperty(rest, name, { value: payload[name], enumerable: true, writable: true, configurable: true });
      }
    }
    let restText;
    try {
      restText = payloadText(rest);
    } catch {
      return unauthenticated(kind, "not in canonical form"); // a value no writer writes
    }
    if (!sameText(macOf(this.key, seqText, kind, restText), mac)) return unauthenticated(kind, "bad mark");
    const canonical = `${SIGNAL_PREFIX}${kind} ${jsonWithMark(mark, rest, restText)}`;
    if (canonical !== signal.rawLine) return unauthenticated(kind, "not in canonical form");
    if (seq <= this._last) {
      return verdict(null, REPLAYED_SIGNAL, `replayed ${kind} signal: sequence number ${seq} again after ${this._last}`, seq);
    }
    if (seq - this._last > MAX_SEQUENCE_STEP) {
      const problem = `${kind} signal out of sequence: number ${seq} after ${this._last} (at most ${MAX_SEQUENCE_STEP} ahead)`;
      return verdict(null, REPLAYED_SIGNAL, problem, seq);
    }
    this._last = seq;
    return verdict({ ...signal, payload: rest }, null, null, seq);
  }
}

/** Compares two texts of equal length in time that does not depend on where they differ. */
function sameText(left, right) {
  if (left.length !== right.length) return false;
  let difference = 0;
  for (let i = 0; i < left.length; i++) difference |= left.charCodeAt(i) ^ right.charCodeAt(i);
  return difference === 0;
}
