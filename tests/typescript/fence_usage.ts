// Typed use of the fence API of the generated binding: `tsc --strict` must accept every
// line, and each expected-error directive must meet an error, so the declarations of
// fence.d.ts and the readers' fence options are neither too loose nor too tight.
import {
  type FenceVerdict,
  FenceError,
  FenceVerifier,
  KEY_FD_VARIABLE,
  KEY_VARIABLE,
  KIND_NOT_ALLOWED,
  MARK_FIELD,
  MAX_SEQUENCE,
  REPLAYED_SIGNAL,
  SignalKey,
  SignalMarker,
  UNAUTHENTICATED_PREFIX,
  UNAUTHENTICATED_SIGNAL,
  readSignals,
  takeProcessKey,
} from "../../generated/typescript/index.js";

const field: "_sig" = MARK_FIELD;
const most: 9007199254740991 = MAX_SEQUENCE;
const variables: readonly string[] = [KEY_VARIABLE, KEY_FD_VARIABLE, UNAUTHENTICATED_PREFIX];
const codes: readonly ("BS601" | "BS602" | "BS603")[] = [UNAUTHENTICATED_SIGNAL, REPLAYED_SIGNAL, KIND_NOT_ALLOWED];

const key: SignalKey = SignalKey.generate();
const again: SignalKey = SignalKey.parse(key.text());
const run: string = again.run;
// @ts-expect-error the constructor is private: keys come from generate or parse
new SignalKey();
// @ts-expect-error a random source has getRandomValues
SignalKey.generate({});

const marker = new SignalMarker(key);
const line: string = marker.mark("QUESTION", { question: "Apply?", options: ["yes", "no"] });
marker.mark("COMPLETED");
marker.mark("COMPLETED", null, { validate: false });
const seq: number = marker.seq;
// @ts-expect-error a QUESTION payload needs its question
marker.mark("QUESTION", {});
// @ts-expect-error an unknown kind
marker.mark("DONE");

const verifier = new FenceVerifier(key, { allowKinds: ["QUESTION", "COMPLETED"] });
new FenceVerifier(null, { allowKinds: new Set(["FAILED"] as const) });
// @ts-expect-error allowKinds holds kinds
new FenceVerifier(key, { allowKinds: ["DONE"] });

function describe(verdict: FenceVerdict): string {
  if (verdict.signal !== null) {
    const kind = verdict.signal.kind;
    const rest = verdict.signal.kind === "QUESTION" ? verdict.signal.payload.question : kind;
    return `${rest} #${verdict.seq ?? "-"}`;
  }
  if (verdict.code !== null) {
    const problem: string = verdict.problem;
    return `${verdict.code} ${problem} line ${verdict.lineNo ?? "?"}`;
  }
  // @ts-expect-error plain output has no problem
  const none: string = verdict.problem;
  return none;
}
describe(verifier.check(line));
describe(verifier.check(new TextEncoder().encode(line)));

async function read(stream: AsyncIterable<Uint8Array>): Promise<string[]> {
  const seen: string[] = [];
  const options = { key, allowKinds: ["COMPLETED", "FAILED"] as const, onRejected: (v: FenceVerdict) => seen.push(describe(v)) };
  for await (const record of readSignals(stream, options)) seen.push(record.signal.kind);
  // @ts-expect-error onRejected takes a verdict
  readSignals(stream, { key, onRejected: (v: string) => v });
  return seen;
}

const environment: Record<string, string | undefined> = { [KEY_VARIABLE]: key.text() };
const taken: SignalKey | null = takeProcessKey(environment, { readDescriptor: (fd: number) => String(fd) });
// @ts-expect-error a key that cannot be taken throws: there is no warning callback
takeProcessKey(environment, { warn: (text: string) => text });
// @ts-expect-error the environment is required (the package reads no global)
takeProcessKey();

try {
  SignalKey.parse("nope");
} catch (error) {
  if (error instanceof FenceError) {
    const code: "bad-key" | "no-random" | "marked-payload" | "sequence-spent" = error.code;
    console.log(code);
  }
}

export { field, most, variables, codes, run, seq, read, taken };
