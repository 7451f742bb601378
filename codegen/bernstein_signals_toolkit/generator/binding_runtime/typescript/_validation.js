/** Helpers the generated validators call, with JSON Schema's meaning of types and equality. */
import { isPlainObject } from "./_json.js";
import { MAX_NESTING_DEPTH } from "./limits.js";

export { isPlainObject };

/** Stands for a member the payload does not have. */
export const ABSENT = Symbol("absent");

/** An integer is a number whose value is integral (1.0 is one); a bigint always is. */
export function isInteger(value) {
  return (typeof value === "number" && Number.isInteger(value)) || typeof value === "bigint";
}

export function isNumber(value) {
  return typeof value === "number" || typeof value === "bigint";
}

/** Characters counted as code points, items, or members. */
export function size(value) {
  if (typeof value === "string") {
    let pairs = 0;
    for (let index = 0; index < value.length; index++) {
      const code = value.charCodeAt(index);
      if (code >= 0xd800 && code <= 0xdbff) {
        const next = value.charCodeAt(index + 1);
        if (next >= 0xdc00 && next <= 0xdfff) {
          pairs += 1;
          index += 1;
        }
      }
    }
    return value.length - pairs;
  }
  return Array.isArray(value) ? value.length : Object.keys(value).length;
}

let unlike = 0;

/**
 * A string equal for JSON-equal values: 1 and 1.0 and 1n are equal, true and 1 are not.
 * Bounded below MAX_NESTING_DEPTH levels; a value that is not JSON equals only itself.
 */
export function jsonKey(value, depth = 0) {
  if (value === null) return "null";
  switch (typeof value) {
    case "boolean":
      return value ? "true" : "false";
    case "string":
      return `s${JSON.stringify(value)}`;
    case "bigint":
      return `n${value}`;
    case "number":
      return Number.isInteger(value) ? `n${BigInt(value)}` : `n${value}`;
    case "object":
      if (depth < MAX_NESTING_DEPTH) {
        if (Array.isArray(value)) {
          return `[${value.map((item) => jsonKey(item, depth + 1)).join(",")}]`;
        }
        if (isPlainObject(value)) {
          const members = Object.keys(value)
            .sort()
            .map((key) => `${JSON.stringify(key)}:${jsonKey(value[key], depth + 1)}`);
          return `{${members.join(",")}}`;
        }
      }
      return `x${unlike++}`;
    default:
      return `x${unlike++}`;
  }
}

/** uniqueItems: no two items are equal as JSON values. */
export function allUnique(items) {
  return new Set(items.map((item) => jsonKey(item))).size === items.length;
}

/** A finite double as an exact fraction: [numerator, denominator], both BigInt. */
function fraction(value) {
  if (typeof value === "bigint") return [value, 1n];
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, value);
  const bits = view.getBigUint64(0);
  const sign = bits >> 63n ? -1n : 1n;
  const exponent = Number((bits >> 52n) & 0x7ffn);
  const fractionBits = bits & ((1n << 52n) - 1n);
  const mantissa = exponent === 0 ? fractionBits : fractionBits | (1n << 52n);
  const power = (exponent === 0 ? 1 : exponent) - 1075;
  return power >= 0
    ? [sign * mantissa * (1n << BigInt(power)), 1n]
    : [sign * mantissa, 1n << BigInt(-power)];
}

/**
 * multipleOf as the Python binding decides it: an integer divisor divides exactly; a
 * fractional one by float division, exactly when the quotient overflows.
 */
export function multipleOf(value, divisor, fractional) {
  if (!fractional) {
    if (typeof value === "bigint") return value % BigInt(divisor) === 0n;
    return value % Number(divisor) === 0;
  }
  const quotient = Number(value) / divisor;
  if (Number.isFinite(quotient)) return Number.isInteger(quotient);
  if (Number.isNaN(quotient) || (typeof value === "number" && !Number.isFinite(value))) {
    return false;
  }
  const [top, bottom] = fraction(value);
  const [divTop, divBottom] = fraction(divisor);
  return (top * divBottom) % (bottom * divTop) === 0n;
}

/** Whether `value` passes a compiled subschema (for anyOf, oneOf, not, if, contains). */
export function passes(check, value, depth) {
  const errors = [];
  check(value, "", errors, depth);
  return errors.length === 0;
}

/** The JSON pointer of the member `key` of the object at `pointer`. */
export function memberPointer(pointer, key) {
  return `${pointer}/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`;
}
