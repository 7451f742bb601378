/** How messages show a value a caller passed: bounded, whatever the value. */

export function shown(value) {
  if (typeof value === "string") {
    return value.length <= 80 ? JSON.stringify(value) : `${JSON.stringify(value.slice(0, 77))}...`;
  }
  if (value === null || typeof value !== "object") {
    const text = typeof value === "bigint" ? `${value}n` : String(value);
    return text.length <= 80 ? text : `${text.slice(0, 77)}...`;
  }
  return Array.isArray(value) ? "an array" : `an object (${value.constructor?.name ?? "null prototype"})`;
}


/**
 * What a value is, never what it holds ("a string", "an object (Map)"): for messages
 * about a value that may be a signal key (a key text where a SignalKey or option belongs).
 */
export function typeOf(value) {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return "an array";
  if (typeof value !== "object") return `${/^[aeiou]/.test(typeof value) ? "an" : "a"} ${typeof value}`;
  const name = value.constructor?.name;
  return typeof name === "string" && /^[A-Za-z_$][\w$]{0,40}$/.test(name) ? `an object (${name})` : "an object";
}
