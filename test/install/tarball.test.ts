/**
 * The package as `npm pack`'s tarball (README install option 1), installed into a new TypeScript
 * program: the checks every install gets (test/install/installed.ts), and `pulumi-gitbook new` run
 * from the installed copy.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { expect, it } from "vitest";
import { ROOT } from "../../dev/checkout";
import { describeInstalledProgram, exec } from "./installed";

let tarball: string;

describeInstalledProgram(
  "the packed package in a new TypeScript program",
  async (tmp) => {
    if (!fs.existsSync(path.join(ROOT, "dist/types-node10/provider/index.d.ts"))) throw new Error("dist/ is not built: run `npm run build` first (npm test does)");
    // dist/ is built already; --ignore-scripts packs it as it is instead of building it again.
    const packed = await exec("npm", ["pack", "--ignore-scripts", "--silent", "--pack-destination", tmp], { cwd: ROOT });
    tarball = path.join(tmp, packed.stdout.trim().split("\n").pop()!);
    return { spec: tarball };
  },
  (installed) => {
    it("npm runs no install script of the package: a tarball holds dist/ already", () => {
      expect(installed().npmStderr).not.toContain("pulumi-gitbook@");
    });

    it("`pulumi-gitbook new` run from the installed copy names the tarball the program's lock records, or --package", async () => {
      const { tmp, program } = installed();
      const bin = path.join(program, "node_modules/pulumi-gitbook/dist/bin/pulumi-gitbook.js");
      const dependency = (dir: string) => JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")).dependencies["pulumi-gitbook"];
      const second = path.join(tmp, "second");
      const r = await exec(process.execPath, [bin, "new", second], { cwd: program });
      expect(r.stderr).toBe("");
      expect(dependency(second)).toBe(`file:../${path.basename(tarball)}`);

      const third = path.join(tmp, "nested", "third");
      const given = await exec(process.execPath, [bin, "new", third, "--package", tarball], { cwd: program });
      expect(dependency(third)).toBe(`file:../../${path.basename(tarball)}`);
      expect(given.stdout).toContain(`pulumi-gitbook: file:../../${path.basename(tarball)} (from --package)`);
    }, 60_000);
  },
);
