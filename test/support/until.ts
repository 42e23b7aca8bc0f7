import { vi } from "vitest";

/**
 * Waits until `check` passes, however long that takes on a loaded machine: the test's own timeout is
 * the only limit. `vi.waitFor` alone gives up after 1 s, which a busy CI machine (three workers on two
 * cores, load above 10) exceeded before a request was even sent: a timed assertion in disguise.
 */
export function until<T>(check: () => T): Promise<T> {
  return vi.waitFor(check, { timeout: 2 ** 31 - 1, interval: 5 });
}
