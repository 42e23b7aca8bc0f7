#!/usr/bin/env node
// npm's `prepare` script: builds dist/ whenever npm installs this package from its sources. Plain
// JavaScript, since it runs before anything is compiled.
//
// npm runs it
// - after `npm ci` / `npm install` in a checkout, and before `npm pack`: the checkout's devDependencies
//   (TypeScript among them) are installed, so it builds;
// - for `npm install <git URL>`: npm clones the repository, installs all its dependencies there,
//   runs this, and installs what `npm pack` would publish;
// - for `npm install /path/to/checkout`: npm links the folder and runs this in it, but installs
//   nothing there. A fresh checkout then has no TypeScript and no dependencies to run with, so this
//   installs them first (`npm ci`, exactly the checkout's lock), then builds.
// A tarball (`npm pack`'s file) holds dist/ already; npm runs nothing for it.
"use strict";
const { spawnSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");

const root = path.resolve(__dirname, "..");

function run(cmd, args) {
  // The install that runs this script passes its own npm settings down in npm_config_* variables
  // (its prefix among them): the nested npm must work on this checkout alone.
  const env = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (/^npm_(config_(prefix|local_prefix|global|save.*|omit|include|production|only|link|install_links)|package_|lifecycle_)/i.test(k)) continue;
    env[k] = v;
  }
  const r = spawnSync(cmd, args, { cwd: root, stdio: "inherit", env, shell: process.platform === "win32" });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

function resolvable(name) {
  try {
    require.resolve(`${name}/package.json`, { paths: [root] });
    return true;
  } catch {
    return false;
  }
}

if (!resolvable("typescript") || !resolvable("zod")) {
  console.log("pulumi-gitbook: installing the checkout's own dependencies (npm ci) to build it; this is a one-time step of installing from a checkout.");
  const npm = process.env.npm_execpath ? [process.execPath, [process.env.npm_execpath]] : ["npm", []];
  run(npm[0], [...npm[1], "ci", "--ignore-scripts", "--no-audit", "--no-fund", "--prefix", root]);
}
// `tsc -b`, as `npm run build` (package.json), with tsconfig.json's build-info file, so either build
// knows what the other emitted: npm runs this more than once per install (a git URL: in npm's
// clone, then again before packing it; a checkout: at its `npm ci`, then at each program's
// `npm install`), and a build of unchanged sources then compares timestamps (about 1 CPU-second)
// instead of compiling everything again (about 10).
const tsc = require.resolve("typescript/bin/tsc", { paths: [root] });
run(process.execPath, [tsc, "-b", path.join(root, "tsconfig.json")]);
run(process.execPath, [path.join(root, "dist/scripts/typesNode10.js")]);
if (!fs.existsSync(path.join(root, "dist/provider/index.js"))) {
  console.error("pulumi-gitbook: the build wrote no dist/provider/index.js");
  process.exit(1);
}
