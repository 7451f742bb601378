/** The errors the binding throws: each has a `code` a caller can switch on. */

/**
 * formatSignal, formatReply or a constructor cannot write the line: `code` is
 * "unknown-kind", "payload-type" (the payload is no plain object) or "not-json"
 * (a value JSON cannot carry on one line within the documented limits).
 */
export class SignalFormatError extends Error {
  constructor(message, code) {
    super(message);
    this.name = "SignalFormatError";
    this.code = code;
  }
}

/**
 * One way a payload breaks its schema: a JSON pointer, the keyword, what is wrong (the
 * schema's x-bernstein-message and the field's description folded in), and the rule in
 * the validator's own words. The same four strings as the Python binding's PayloadError.
 */
export class PayloadError {
  constructor(pointer, rule, message, detail = "") {
    this.pointer = pointer;
    this.rule = rule;
    this.message = message;
    this.detail = detail;
    Object.freeze(this);
  }

  toString() {
    return `${this.pointer || "/"}: ${this.message} [${this.rule}]`;
  }
}

/** A payload breaks the schema of its kind (or the reply schema); `errors` says how. */
export class SignalPayloadError extends SignalFormatError {
  constructor(kind, errors) {
    super(`invalid ${kind} payload: ${errors.map(String).join("; ")}`, "payload-schema");
    this.name = "SignalPayloadError";
    this.kind = kind;
    this.errors = Object.freeze([...errors]);
  }
}
