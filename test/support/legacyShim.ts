/**
 * The `__provider` text earlier builds of 0.1.0 (before 2026-11-25) wrote into state for a kind
 * (fixtures/shim-0.1.0.txt, with the kind where it says KIND): the SDK's serialization of the shim,
 * 2.7 kB, which stacks deployed with them still hold. It calls the same `dispatch(1, kind, method,
 * args)` as the shim written now.
 */
import * as fs from "node:fs";
import * as path from "node:path";

const TEMPLATE = fs.readFileSync(path.join(__dirname, "fixtures/shim-0.1.0.txt"), "utf8");

export function legacyShim(kind: string): string {
  return TEMPLATE.replaceAll('kind: "KIND"', `kind: ${JSON.stringify(kind)}`);
}
