/** What went wrong when writing a line. */
export type SignalFormatErrorCode = "unknown-kind" | "payload-type" | "not-json" | "payload-schema";

/** formatSignal, formatReply or a constructor cannot write the line. */
export declare class SignalFormatError extends Error {
  constructor(message: string, code: SignalFormatErrorCode);
  readonly code: SignalFormatErrorCode;
}

/** One way a payload breaks its schema. */
export declare class PayloadError {
  constructor(pointer: string, rule: string, message: string, detail?: string);
  /** JSON pointer to the offending member ("" is the payload itself). */
  readonly pointer: string;
  /** The schema keyword broken (`type`, `required`, `minLength`...). */
  readonly rule: string;
  /** What is wrong, with the schema's x-bernstein-message and the field's description. */
  readonly message: string;
  /** The rule in the validator's own words (`must match ^a$`). */
  readonly detail: string;
  toString(): string;
}

/** A payload breaks the schema of its kind (or the reply schema). */
export declare class SignalPayloadError extends SignalFormatError {
  constructor(kind: string, errors: readonly PayloadError[]);
  readonly code: "payload-schema";
  readonly kind: string;
  readonly errors: readonly PayloadError[];
}
