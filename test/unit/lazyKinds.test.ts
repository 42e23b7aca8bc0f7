/**
 * The provider host loads a kind's module at the kind's first call (impl.definitionOf), from the file
 * its name gives: every kind of the registry (resources/index.ts) must be found that way, as the same
 * definition, and must load when it is the first kind a process meets (a kind whose module relied on
 * the registry's import order to settle a circular import would fail only in a user's provider process).
 */
import { execFile } from "node:child_process";
import * as path from "node:path";
import { promisify } from "node:util";
import { expect, it } from "vitest";
import { definitionOf } from "../../provider/impl";
import { resources } from "../../provider/resources";

const ROOT = path.resolve(__dirname, "../..");

it("finds every kind of the registry by its name, as the registry's own definition", async () => {
  for (const def of resources) expect(await definitionOf(def.kind), def.kind).toBe(def);
});

it("refuses what is not a kind's name", async () => {
  for (const kind of ["Unknown", "Index", "Conditions", "Placement", "Access", "siteSection", "../resources/site", "Site.js", ""]) {
    await expect(definitionOf(kind), kind).rejects.toThrow(`pulumi-gitbook: unknown resource kind "${kind}"`);
  }
});

it("loads each kind of the built package as the first a process meets, and checks inputs with it", async () => {
  // One process; before each kind the package's modules leave the module cache, so each loads first.
  const script = `
    const dist = ${JSON.stringify(path.join(ROOT, "dist/provider"))};
    const kinds = require(dist + "/resources/index.js").resources.map((r) => r.kind);
    (async () => {
      for (const kind of kinds) {
        for (const k of Object.keys(require.cache)) if (k.startsWith(dist)) delete require.cache[k];
        const def = await require(dist + "/impl.js").definitionOf(kind);
        if (def.kind !== kind || typeof def.schema.safeParse({}).success !== "boolean") throw new Error(kind);
        const others = Object.keys(require.cache).filter((k) => k.startsWith(dist + "/resources/")).length;
        process.stdout.write(kind + " " + others + "\\n");
      }
    })().catch((e) => { console.error(e); process.exit(1); });
  `;
  const { stdout } = await promisify(execFile)(process.execPath, ["-e", script]);
  const loaded = stdout.trim().split("\n").map((l) => l.split(" "));
  expect(loaded.map(([kind]) => kind)).toEqual(resources.map((r) => r.kind));
  // Loading one kind loads only what it imports, never the whole registry.
  const site = Number(loaded.find(([kind]) => kind === "Site")![1]);
  expect(site).toBeLessThan(resources.length);
}, 60_000);
