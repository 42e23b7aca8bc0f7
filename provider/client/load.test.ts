/**
 * What the provider process loads. The dynamic-provider host loads this package for every provider
 * call it serves; a process that only diffs (a preview, a no-op `up`) sends nothing, so it must not
 * pay for the HTTP stack. Checked in a separate `node` on the built package, whose module cache is its
 * own (the test runner's is shared with other tests).
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "../..");
const IMPL = path.join(ROOT, "dist/provider/impl.js");

it("loads undici only at the first request: configure and diff do not", () => {
  if (!fs.existsSync(IMPL)) throw new Error(`${IMPL} is missing: run \`npm run build\` first`);
  const script = `
    const { dispatch } = require(${JSON.stringify(IMPL)});
    const loaded = () => Object.keys(require.cache).some((f) => f.includes(${JSON.stringify(`${path.sep}node_modules${path.sep}undici${path.sep}`)}));
    (async () => {
      await dispatch(1, "SiteSection", "configure", [{ config: { get: (k) => (k === "gitbook:token" ? "t0ken" : k === "gitbook:apiUrl" ? "http://127.0.0.1:9" : undefined) } }]);
      const props = { organizationId: "org_1", siteId: "site_1", spaceId: "spc_1", title: "A" };
      await dispatch(1, "SiteSection", "diff", ["sitesc_1", props, { ...props, title: "B" }]);
      console.log(JSON.stringify({ afterDiff: loaded() }));
    })().catch((e) => { console.error(e); process.exit(1); });
  `;
  const out = JSON.parse(execFileSync(process.execPath, ["-e", script], { encoding: "utf8" })) as { afterDiff: boolean };
  expect(out.afterDiff).toBe(false);
});
