#!/usr/bin/env node
// `pulumi-gitbook <command> [options]`: the package's command-line tools. A command is one line of
// COMMANDS; its module is loaded only when it runs, and gets the arguments after the command's name.
interface Command {
  summary: string;
  run(argv: string[]): Promise<void>;
}

const COMMANDS: Record<string, Command> = {
  emulator: { summary: "run the GitBook API emulator on 127.0.0.1 (pulumi-gitbook emulator --help)", run: async (argv) => (await import("../emulator/cli")).main(argv) },
  import: {
    summary: "write a Pulumi program that adopts an existing GitBook organization (pulumi-gitbook import --help)",
    run: async (argv) => {
      process.exitCode = await (await import("../provider/importer/command")).runImport(argv);
    },
  },
  new: {
    summary: "write a TypeScript Pulumi program using this package, with dev (emulator) and prod stacks (pulumi-gitbook new --help)",
    run: async (argv) => {
      process.exitCode = await (await import("./new")).runNew(argv);
    },
  },
  recover: {
    summary: "after an interrupted `pulumi up`, resolve its pending creates so the next up makes no duplicate (pulumi-gitbook recover --help)",
    run: async (argv) => {
      process.exitCode = await (await import("../provider/recover/command")).runRecover(argv);
    },
  },
};

function usage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length));
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`);
  return `usage: pulumi-gitbook <command> [options]\ncommands:\n${lines.join("\n")}\n`;
}

async function run(argv: string[]): Promise<void> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "-h" || name === "--help") {
    process.stdout.write(usage());
    if (name === undefined) process.exitCode = 2;
    return;
  }
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) {
    process.stderr.write(`unknown command: ${name}\n${usage()}`);
    process.exitCode = 2;
    return;
  }
  await command.run(rest);
}

run(process.argv.slice(2)).catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
