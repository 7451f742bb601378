// The tagged trees the Python tests send values in (harness.mjs, fence_harness.mjs), so that
// no number changes on the way: ["i", digits], ["f", repr], ["s", text], ["b", bool], ["n"],
// ["a", items], ["o", [[key, value], ...]]. Integers beyond Number.MAX_SAFE_INTEGER become
// bigints, as the binding's reader makes them; keys keep their order (defineProperty, so
// "__proto__" is an own key).

export function fromTagged([tag, data]) {
  switch (tag) {
    case "i": {
      const exact = BigInt(data);
      const safe = BigInt(Number.MAX_SAFE_INTEGER);
      return exact > safe || exact < -safe ? exact : Number(data);
    }
    case "f":
      return Number(data);
    case "s":
    case "b":
      return data;
    case "n":
      return null;
    case "a":
      return data.map(fromTagged);
    case "o": {
      const result = {};
      for (const [key, value] of data) {
        Object.defineProperty(result, key, { value: fromTagged(value), enumerable: true, writable: true, configurable: true });
      }
      return result;
    }
    default:
      throw new Error(`unknown tag ${tag}`);
  }
}
