/**
 * The files every program this package writes shares, so that `pulumi-gitbook new` and
 * `pulumi-gitbook import` write the same ones: package.json (the dependencies `pulumi new typescript`
 * names, and this package as it was installed) and the template's tsconfig.json.
 */
import { ownPackage, type OwnPackage } from "./packageSource";

/** pulumi/templates' typescript tsconfig.json, unchanged (no skipLibCheck, no esModuleInterop). */
export const TEMPLATE_TSCONFIG = {
  compilerOptions: {
    strict: true,
    outDir: "bin",
    target: "es2020",
    module: "commonjs",
    moduleResolution: "node",
    sourceMap: true,
    experimentalDecorators: true,
    pretty: true,
    noFallthroughCasesInSwitch: true,
    noImplicitReturns: true,
    forceConsistentCasingInFileNames: true,
  },
  files: ["index.ts"],
};

/** tsconfig.json's text, indented as the template's. */
export const TSCONFIG_JSON = `${JSON.stringify(TEMPLATE_TSCONFIG, null, 4)}\n`;

/** The lowest version a peer range such as ">=3.216.0 <4" allows, as a caret range. */
const caretOf = (range: string | undefined, fallback: string) => {
  const m = /(\d+\.\d+\.\d+)/.exec(range ?? "");
  return m ? `^${m[1]}` : fallback;
};

/** package.json of a program named `name` that depends on this package as `packageSpec`. */
export function programPackageJson(name: string, packageSpec: string, own: Pick<OwnPackage, "name" | "devDependencies" | "peerDependencies"> = ownPackage(__dirname)): string {
  const packageJson = {
    name,
    main: "index.ts",
    devDependencies: {
      "@types/node": caretOf(own.devDependencies["@types/node"], "^20.19.0"),
      typescript: caretOf(own.devDependencies.typescript, "^5.9.3"),
    },
    dependencies: {
      "@pulumi/pulumi": caretOf(own.peerDependencies["@pulumi/pulumi"], "^3.216.0"),
      [own.name]: packageSpec,
    },
  };
  return `${JSON.stringify(packageJson, null, 4)}\n`;
}
