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

