/**
 * JSON as a signal line carries it: the grammar's object, the documented limits, one line.
 *
 * JSON.parse accepts more than the grammar (CR/LF whitespace, lone surrogates,
 * 1e400 as Infinity, any nesting) and rounds integers past 2^53. Lines that
 * could hit any of those go through the exact parser below; the rest, nearly
 * every line, through JSON.parse. Both are linear in the text.
 */
import { MAX_INTEGER_DIGITS, MAX_NESTING_DEPTH } from "./limits.js";
import { SignalFormatError } from "./errors.js";

/** In unicode mode a surrogate class matches only surrogates that are not paired. */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;
const LINE_BREAKING = /[\r\n]/;
/** A surrogate escape, a run of digits past a double's exact integers, or a large exponent. */
const SUSPICIOUS = /\\u[dD][89a-fA-F]|\d{16}|[eE][+-]?\d{3}/;
/** More openers than the nesting bound; linear: each star stops at the next opener. */
const MANY_OPENERS = new RegExp(`^(?:[^{[]*[{[]){${MAX_NESTING_DEPTH + 1}}`);
const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
const PLAIN_RUN = /[^"\\\u0000-\u001f]*/y;
const LINE_SAFETY = /[\u0085\u2028\u2029]/g;
const LINE_SAFETY_ESCAPES = { "\u0085": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029" };
const ESCAPES = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };
const SAFE = BigInt(Number.MAX_SAFE_INTEGER);

class Refused extends Error {}

function refuse() {
  throw new Refused();
}

/** The exact reader: integers past 2^53 as BigInt, every limit checked on the text. */
class ExactParser {
  constructor(text) {
    this.text = text;
    this.at = 0;
    this.depth = 0;
  }

  space() {
    const text = this.text;
    let code = text.charCodeAt(this.at);
    while (code === 0x20 || code === 0x09) code = text.charCodeAt(++this.at);
  }

  value() {
    this.space();
    const code = this.text.charCodeAt(this.at);
    if (code === 0x7b) return this.object();
    if (code === 0x5b) return this.array();
    if (code === 0x22) return this.string();
    if (code === 0x2d || (code >= 0x30 && code <= 0x39)) return this.number();
    for (const [word, value] of [
      ["true", true],
      ["false", false],
      ["null", null],
    ]) {
      if (this.text.startsWith(word, this.at)) {
        this.at += word.length;
        return value;
      }
    }
    return refuse();
  }

  enter() {
    if (++this.depth > MAX_NESTING_DEPTH) refuse();
    this.at += 1;
    this.space();
  }

  object() {
    this.enter();
    const result = {};
    if (this.text.charCodeAt(this.at) === 0x7d) {
      this.at += 1;
      this.depth -= 1;
      return result;
    }
    for (;;) {
      this.space();
      if (this.text.charCodeAt(this.at) !== 0x22) refuse();
      const key = this.string();
      this.space();
      if (this.text.charCodeAt(this.at) !== 0x3a) refuse();
      this.at += 1;
      const member = this.value();
      // A "__proto__" key is an own member, as JSON.parse makes it, never the prototype.
      Object.defineProperty(result, key, {
        value: member,
        writable: true,
        enumerable: true,
        configurable: true,
      });
      this.space();
      const next = this.text.charCodeAt(this.at++);
      if (next === 0x7d) break;
      if (next !== 0x2c) refuse();
    }
    this.depth -= 1;
    return result;
  }

  array() {
    this.enter();
    const result = [];
    if (this.text.charCodeAt(this.at) === 0x5d) {
      this.at += 1;
      this.depth -= 1;
      return result;
    }
    for (;;) {
      result.push(this.value());
      this.space();
      const next = this.text.charCodeAt(this.at++);
      if (next === 0x5d) break;
      if (next !== 0x2c) refuse();
    }
    this.depth -= 1;
    return result;
  }

  string() {
    const text = this.text;
    let result = "";
    this.at += 1;
    for (;;) {
      PLAIN_RUN.lastIndex = this.at;
      PLAIN_RUN.test(text);
      result += text.slice(this.at, PLAIN_RUN.lastIndex);
      this.at = PLAIN_RUN.lastIndex;
      const code = text.charCodeAt(this.at);
      if (code === 0x22) {
        this.at += 1;
        break;
      }
      if (code !== 0x5c) refuse(); // a control character, or the end of the text
      const escape = text[this.at + 1];
      if (escape === "u") {
        const hex = text.slice(this.at + 2, this.at + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) refuse();
        result += String.fromCharCode(parseInt(hex, 16));
        this.at += 6;
      } else if (escape !== undefined && Object.hasOwn(ESCAPES, escape)) {
        result += ESCAPES[escape];
        this.at += 2;
      } else {
        refuse();
      }
    }
    if (LONE_SURROGATE.test(result)) refuse();
    return result;
  }

  number() {
    NUMBER.lastIndex = this.at;
    const found = NUMBER.exec(this.text);
    if (found === null) return refuse();
    this.at = NUMBER.lastIndex;
    const token = found[0];
    if (found[1] === undefined && found[2] === undefined) {
      const digits = token.length - (token.startsWith("-") ? 1 : 0);
      if (digits > MAX_INTEGER_DIGITS) refuse();
      if (digits < 16) return Number(token);
      const exact = BigInt(token);
      return exact > SAFE || exact < -SAFE ? exact : Number(token);
    }
    const value = Number(token);
    if (!Number.isFinite(value)) refuse();
    return value;
  }
}

/**
 * The object `text` holds, or null unless it is exactly the grammar's object within the
 * documented limits. Integers beyond Number.MAX_SAFE_INTEGER are BigInt, so no digit is
 * lost; duplicate keys are grammatical and the last wins. Never throws.
 */
export function loadObject(text) {
  if (typeof text !== "string" || text.charCodeAt(0) !== 0x7b) return null;
  if (text.charCodeAt(text.length - 1) !== 0x7d || LINE_BREAKING.test(text)) return null;
  if (LONE_SURROGATE.test(text)) return null;
  const exact =
    SUSPICIOUS.test(text) || (text.length > 2 * MAX_NESTING_DEPTH && MANY_OPENERS.test(text));
  try {
    if (!exact) return JSON.parse(text);
    const parser = new ExactParser(text);
    const value = parser.value();
    return parser.at === text.length ? value : null;
  } catch {
    return null; // not JSON, a refused limit, or a stack too small for the input
  }
}

function isPlainObject(value) {
  if (typeof value !== "object" || value === null) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function notJson(message) {
  return new SignalFormatError(message, "not-json");
}

function dumpString(text) {
  if (LONE_SURROGATE.test(text)) {
    throw notJson("payload holds a lone surrogate, which UTF-8 cannot carry");
  }
  const quoted = JSON.stringify(text);
  return LINE_SAFETY.test(quoted)
    ? quoted.replace(LINE_SAFETY, (match) => LINE_SAFETY_ESCAPES[match])
    : quoted;
}

function dumpValue(value, depth) {
  switch (typeof value) {
    case "string":
      return dumpString(value);
    case "number":
      if (!Number.isFinite(value)) throw notJson(`payload number ${value} is not JSON`);
      return JSON.stringify(value); // ECMAScript Number::toString; -0 is "0"
    case "bigint": {
      const digits = (value < 0n ? -value : value).toString();
      if (digits.length > MAX_INTEGER_DIGITS) {
        throw notJson(`payload integer has more than ${MAX_INTEGER_DIGITS} digits`);
      }
      return value.toString();
    }
    case "boolean":
      return value ? "true" : "false";
    case "object":
      if (value === null) return "null";
      if (depth > MAX_NESTING_DEPTH) {
        throw notJson(`payload nesting is deeper than ${MAX_NESTING_DEPTH}`);
      }
      if (Array.isArray(value)) {
        const parts = [];
        for (let index = 0; index < value.length; index++) {
          parts.push(dumpValue(value[index], depth + 1));
        }
        return `[${parts.join(",")}]`;
      }
      if (isPlainObject(value)) return dumpObject(value, depth);
      throw notJson(`payload value of type ${value.constructor?.name ?? "object"} is not JSON`);
    default:
      throw notJson(`payload value of type ${typeof value} is not JSON`);
  }
}

function dumpObject(value, depth) {
  const parts = [];
  // The default sort compares UTF-16 code units: RFC 8785's key order.
  for (const key of Object.keys(value).sort()) {
    const member = value[key];
    if (member === undefined) continue; // as JSON.stringify: an undefined member is absent
    parts.push(`${dumpString(key)}:${dumpValue(member, depth + 1)}`);
  }
  return `{${parts.join(",")}}`;
}

/**
 * The canonical text of a plain object (spec/canonical-form.md): RFC 8785 key order and
 * numbers, integers as their exact digits, U+0085, U+2028 and U+2029 escaped.
 * Throws SignalFormatError (code "not-json") for anything a signal cannot carry.
 */
export function dumpCanonical(value) {
  if (!isPlainObject(value)) throw notJson("a payload is a plain object");
  return dumpObject(value, 1);
}

export { isPlainObject };
