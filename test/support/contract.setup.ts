/**
 * The contract check of the whole suite (vitest setupFiles): every request an emulator of this process
 * received and every response it sent is checked against GitBook's published OpenAPI spec
 * (emulator/contract.ts), and a test during which anything broke the spec fails, naming the operation
 * and the field. So neither the client nor the emulator can drift from GitBook unnoticed.
 */
import { afterEach } from "vitest";
import { formatViolation, type ContractViolation } from "../../emulator/contract";
import { checkContractsInProcess, takeContractViolations } from "../../emulator/emulator";

// This process's emulators only: a child process (an emulator a test spawns) would check where nothing reads its violations.
checkContractsInProcess();

let expected: RegExp[] = [];

/**
 * The current test sends something the spec refuses on purpose (to see the emulator refuse it as
 * GitBook would): a violation matching `pattern` is then required, and allowed.
 */
export function expectContractViolation(pattern: RegExp): void {
  expected.push(pattern);
}

afterEach(() => {
  const found = takeContractViolations();
  const patterns = expected;
  expected = [];
  const text = (v: ContractViolation) => formatViolation(v);
  const unexpected = found.filter((v) => !patterns.some((p) => p.test(text(v))));
  const unmet = patterns.filter((p) => !found.some((v) => p.test(text(v))));
  if (unexpected.length === 0 && unmet.length === 0) return;
  const lines = [
    ...unexpected.slice(0, 10).map(text),
    ...(unexpected.length > 10 ? [`… and ${unexpected.length - 10} more`] : []),
    ...unmet.map((p) => `expected a contract violation matching ${p}, but none happened`),
  ];
  throw new Error(`GitBook's API contract (@gitbook/api spec):\n${lines.join("\n")}`);
});
