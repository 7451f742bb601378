/** What every per-kind constructor does: stamp defaults, drop undefined fields, format. */
import { isPlainObject } from "./_json.js";
import { shown } from "./_shown.js";
import { SignalFormatError } from "./errors.js";
import { formatSignal } from "./formatting.js";

export function build(kind, fields, defaults) {
  if (fields !== undefined && !isPlainObject(fields)) {
    throw new SignalFormatError(`${kind}'s fields are a plain object, not ${shown(fields)}`, "payload-type");
  }
  const payload = { ...defaults, ...fields };
  const empty = Object.values(payload).every((value) => value === undefined);
  return formatSignal(kind, empty ? null : payload);
}
