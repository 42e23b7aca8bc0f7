/**
 * What the main example (examples/docs-site, project file at the repository root) needs from an
 * emulator to run: the provider settings, and `docs-site:spaces`, the map from the space names the
 * example's topology uses to space IDs.
 *
 * The emulator seeds its spaces deterministically by title ("Getting started", "SDK for TypeScript",
 * ...) but their IDs depend on its PRNG, so the map is built here by title (SPACE_TITLES) rather than
 * by hard-coding IDs in the stack files. Team members need no mapping: the example names them by the
 * e-mails the emulator seeds (ada@acme.test, ...).
 *
 * Used by test/examples and by the demo; pass the result as HARNESS_CONFIG (or as `config` to a
 * Deployment's run).
 */
import type { Emulator } from "../emulator";
import { ROOT } from "./checkout";

/** The example's project folder: the repository root, where its Pulumi.yaml is. */
export const EXAMPLE_DIR = ROOT;

/** The space names the example's config uses, and the title of the emulator's seeded space each stands for. */
export const SPACE_TITLES: Readonly<Record<string, string>> = {
  "getting-started": "Getting started",
  "api-reference": "API reference",
  guides: "Guides",
  changelog: "Changelog",
  "sdk-typescript": "SDK for TypeScript",
  "internal-handbook": "Internal handbook",
};

/** `docs-site:spaces` for the emulator: space name -> ID of the seeded space with that title. */
export function exampleSpaces(emu: Emulator): Record<string, string> {
  const byTitle = new Map([...emu.store.spaces.values()].map((s) => [s.title, s.id]));
  return Object.fromEntries(
    Object.entries(SPACE_TITLES).map(([name, title]) => {
      const id = byTitle.get(title);
      if (!id) throw new Error(`the emulator seeds no space titled "${title}" (the example's space "${name}")`);
      return [name, id];
    }),
  );
}

/** Config for running the example against `emu`, namespaced and as text, as HARNESS_CONFIG takes it. */
export function exampleConfig(emu: Emulator): Record<string, string> {
  return {
    "gitbook:token": emu.token,
    "gitbook:apiUrl": emu.url,
    "gitbook:organizationId": emu.seeded.organizationId,
    "docs-site:spaces": JSON.stringify(exampleSpaces(emu)),
  };
}
