// Typed use of the generated binding: `tsc --strict` must accept every line,
// and each expected-error directive below must meet an error, so the declarations are neither
// too loose nor too tight.
import {
  type PendingQuestion,
  type SignalRecord,
  type StreamSignal,
  QuestionTracker,
  SIGNAL_PREFIX,
  SignalFormatError,
  SignalKind,
  TERMINAL_SIGNAL_KINDS,
  VOCABULARY_VERSION,
  checkTerminalSignal,
  completed,
  formatReply,
  formatSignal,
  iterSignals,
  parseReply,
  parseSignal,
  question,
  readSignals,
  validatePayload,
  type PayloadError,
  SignalPayloadError,
} from "../../generated/typescript/index.js";

const version: string = VOCABULARY_VERSION;
const prefix: "BERNSTEIN:" = SIGNAL_PREFIX;
const terminal: readonly SignalKind[] = TERMINAL_SIGNAL_KINDS;

function describe(signal: StreamSignal): string {
  switch (signal.kind) {
    case "QUESTION": {
      const text: string = signal.payload.question;
      const options: string[] | undefined = signal.payload.options ?? undefined;
      return `${text} ${options?.join("/") ?? ""}`;
    }
    case "FAILED":
      return signal.payload.reason ?? "failed";
    case "PLAN_READY":
      return signal.payload.path;
    default:
      return signal.kind;
  }
}

const parsed = parseSignal("BERNSTEIN:QUESTION {\"question\":\"Apply?\"}", { lenient: false });
if (parsed !== null && parsed.kind === SignalKind.QUESTION) {
  const asked: string = parsed.payload.question;
  void asked;
}
const line: string = formatSignal("FAILED", { reason: "exit 2", detail: { code: 2n } });
const bare: string = formatSignal("COMPLETED");
const asked: string = question({ question: "Apply?", options: ["yes", "no"], id: "q-1" });
const done: string = completed();
// @ts-expect-error a QUESTION needs its question
question({});
// @ts-expect-error not a kind
formatSignal("DONE", {});
// @ts-expect-error PLAN_READY's path is a string
formatSignal("PLAN_READY", { path: 3 });

const tracker = new QuestionTracker({ enforceOptions: true });
const pending: PendingQuestion | null = parsed === null ? null : tracker.feed(parsed);
const reply: string = formatReply("yes", pending?.id ?? null);
const back = parseReply(reply);
const answer: string | undefined = back?.answer;

async function run(source: AsyncIterable<Uint8Array>): Promise<string[]> {
  const seen: SignalRecord[] = [];
  for await (const record of readSignals(source, { maxLineBytes: 1 << 16 })) seen.push(record);
  const missing = checkTerminalSignal(seen, { runId: "r-1" });
  return [...seen.map((record) => describe(record.signal)), missing?.message ?? "ok"];
}

const problems: PayloadError[] = validatePayload("QUESTION", JSON.parse("{}"));
const where: string[] = problems.map((problem) => `${problem.pointer} ${problem.rule} ${problem.detail}`);
const any = parseSignal("BERNSTEIN:PROGRESS {}", { unknownKinds: true });
const anyKind: string | undefined = any === null ? undefined : "unknownKind" in any ? any.kind : any.kind;
// @ts-expect-error with unknownKinds a signal's kind is any string, not a SignalKind
const narrow: SignalKind | undefined = any?.kind;
const strictOne: StreamSignal | null = parseSignal("BERNSTEIN:COMPLETED");
const kinds: string[] = [...iterSignals(["BERNSTEIN:COMPLETED", "log"])].map((signal) => signal.kind);
// @ts-expect-error not a kind
validatePayload("DONE", {});
try {
  formatSignal("BLOCKED", { reason: "" });
} catch (error) {
  if (error instanceof SignalPayloadError) {
    const first: PayloadError | undefined = error.errors[0];
    void first;
  }
}
const unchecked: string = formatSignal("BLOCKED", { reason: "" }, { validate: false });

try {
  formatSignal("COMPLETED", { n: Number.NaN });
} catch (error) {
  if (error instanceof SignalFormatError) {
    const code: "unknown-kind" | "payload-type" | "not-json" | "payload-schema" = error.code;
    void code;
  }
}

export { anyKind, narrow, strictOne, answer, asked, bare, done, kinds, line, prefix, run, terminal, unchecked, version, where };
