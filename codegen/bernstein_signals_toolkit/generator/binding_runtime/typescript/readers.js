/**
 * Reading the signals of an adapter's stdout: any async iterable of bytes (a Node
 * Readable, a fetch body, a Deno or Bun stream), or strings, which are read as UTF-8
 * (a surrogate pair split between two string chunks is still one character).
 *
 * Lines are found with the native indexOf of Uint8Array; a line that does not
 * start with the prefix is dropped as soon as that is known, so memory is
 * bounded by one chunk and `maxLineBytes`. A line longer than `maxLineBytes`
 * (terminator excluded) is never a signal; a final line without "\n" counts;
 * "\r\n" is tolerated; a line that is not UTF-8 is plain output.
 *
 * Fenced mode (a `key`, an `allowKinds` list, or both; spec/fenced-signals.md): each
 * signal line goes through a FenceVerifier, and a refused one is no record: it goes to
 * `onRejected(verdict)` instead, with its `lineNo`. Without either option nothing
 * changes. A fenced reader is strict and reads known kinds only (no `unknownKinds`).
 */
import { parsePrefixed, parsePrefixedAny } from "./_lines.js";
import { FenceVerifier } from "./fence.js";
import { DEFAULT_MAX_LINE_BYTES } from "./limits.js";
import { SIGNAL_PREFIX } from "./kinds.js";

const PREFIX = new TextEncoder().encode(SIGNAL_PREFIX);
const ENCODER = new TextEncoder();
const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const NEWLINE = 0x0a;
const CR = 0x0d;

function startsWithPrefix(bytes, from, to, offset) {
  // Whether bytes[from:to] continues the prefix from its byte `offset`.
  const end = Math.min(to, from + PREFIX.length - offset);
  for (let index = from; index < end; index++) {
    if (bytes[index] !== PREFIX[offset + index - from]) return false;
  }
  return true;
}

/**
 * Push-style reader: feed(chunk) returns the records the chunk completes, close()
 * those of a final line without "\n". For callers that own the read loop.
 */
export class SignalScanner {
  constructor(options = {}) {
    const limit = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
    if (!Number.isSafeInteger(limit) || limit < 1) {
      throw new RangeError("maxLineBytes must be a whole number of at least 1");
    }
    this._limit = limit;
    this._parse = options.unknownKinds === true ? parsePrefixedAny : parsePrefixed;
    this._lineNo = 1; // the number of the line being read
    this._pieces = []; // the start of an unfinished line that may still be a signal
    this._length = 0; // its bytes so far
    this._skipping = false; // the unfinished line is known to be no signal
    this._high = ""; // a string chunk's last code unit when it was a high surrogate
    const fenced = options.key != null || options.allowKinds != null;
    const rejected = options.onRejected ?? null;
    if (fenced && options.unknownKinds === true) {
      throw new RangeError("a fenced reader reads this vocabulary's kinds only: unknownKinds does not go with key or allowKinds");
    }
    if (rejected !== null && !fenced) {
      throw new RangeError("onRejected is called for lines the fence rejects: pass key or allowKinds too");
    }
    if (rejected !== null && typeof rejected !== "function") {
      throw new TypeError("onRejected must be a function");
    }
    this._fence = fenced ? new FenceVerifier(options.key ?? null, { allowKinds: options.allowKinds }) : null;
    this._onRejected = rejected;
  }

  /** Lines seen so far (a final line without "\n" counts once closed). */
  get lines() {
    return this._lineNo - 1;
  }

  feed(chunk) {
    if (typeof chunk !== "string" && !(chunk instanceof Uint8Array)) {
      throw new TypeError("a chunk is bytes (a Uint8Array) or a string");
    }
    const records = [];
    if (typeof chunk === "string") {
      this._scan(this._encoded(chunk), records);
    } else {
      if (this._high !== "") this._scan(this._released(), records);
      this._scan(chunk, records);
    }
    return records;
  }

  /**
   * A string chunk as UTF-8, after the high surrogate the last one ended with; a high
   * surrogate it ends with is held back, since the next chunk may hold its low half (as a
   * byte chunk's unfinished UTF-8 sequence waits for the next).
   */
  _encoded(chunk) {
    let text = this._high + chunk;
    const last = text.charCodeAt(text.length - 1);
    this._high = last >= 0xd800 && last <= 0xdbff ? text.slice(-1) : "";
    if (this._high !== "") text = text.slice(0, -1);
    return ENCODER.encode(text);
  }

  /** The held high surrogate when no low half can follow: alone, TextEncoder's U+FFFD. */
  _released() {
    const held = this._high;
    this._high = "";
    return ENCODER.encode(held);
  }

  _scan(bytes, records) {
    let at = 0;
    while (at < bytes.length) {
      const newline = bytes.indexOf(NEWLINE, at);
      const end = newline < 0 ? bytes.length : newline;
      if (!this._skipping) {
        if (this._length < PREFIX.length && !startsWithPrefix(bytes, at, end, this._length)) {
          this._skipping = true;
        } else if (newline >= 0 && this._length === 0) {
          this._line(bytes.subarray(at, end), records);
        } else if (this._length + (end - at) > this._limit + 1) {
          this._skipping = true; // over-long, whether its last byte is "\r" or not
        } else {
          this._pieces.push(bytes.slice(at, end));
          this._length += end - at;
          if (newline >= 0) this._line(this._joined(), records);
        }
        if (this._skipping) this._drop();
      }
      if (newline < 0) break;
      this._lineNo += 1;
      this._skipping = false;
      this._drop();
      at = newline + 1;
    }
  }

  /** The record of a final line without "\n", if it is a signal; the scanner is then done. */
  close() {
    const records = [];
    if (this._high !== "") this._scan(this._released(), records);
    if (this._length > 0 && !this._skipping) {
      this._line(this._joined(), records);
      this._lineNo += 1;
    } else if (this._length > 0 || this._skipping) {
      this._lineNo += 1;
    }
    this._skipping = false;
    this._drop();
    return records;
  }

  _drop() {
    this._pieces = [];
    this._length = 0;
  }

  _joined() {
    if (this._pieces.length === 1) return this._pieces[0];
    const line = new Uint8Array(this._length);
    let at = 0;
    for (const piece of this._pieces) {
      line.set(piece, at);
      at += piece.length;
    }
    return line;
  }

  /** A complete line; a final line without "\n" is read as if it had one, "\r" and all. */
  _line(bytes, records) {
    const content = bytes[bytes.length - 1] === CR ? bytes.subarray(0, -1) : bytes;
    if (content.length > this._limit || content.length < PREFIX.length) return;
    let text;
    try {
      text = UTF8.decode(content);
    } catch {
      return; // not UTF-8: plain output
    }
    let signal = this._parse(text);
    if (signal === null) return;
    if (this._fence !== null) {
      const verdict = this._fence._verify(signal);
      if (verdict.signal === null) {
        if (this._onRejected !== null) this._onRejected(Object.freeze({ ...verdict, lineNo: this._lineNo }));
        return;
      }
      signal = verdict.signal;
    }
    records.push({ lineNo: this._lineNo, signal, raw: content.slice() });
  }
}

/**
 * The signal lines of a stream, read to its end in bounded memory: `source` is any
 * async (or sync) iterable of Uint8Array or string chunks, such as a Node Readable.
 */
export async function* readSignals(source, options = {}) {
  const scanner = new SignalScanner(options);
  for await (const chunk of source) {
    const records = scanner.feed(chunk);
    for (let index = 0; index < records.length; index++) yield records[index];
  }
  yield* scanner.close();
}
