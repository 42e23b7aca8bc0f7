// `pulumi-gitbook/emulator`: the GitBook API emulator, for trying and testing a program offline.
// This is the whole public API; everything else under emulator/ is internal and may change.
//
//   const emu = await Emulator.start({ seedFile: "seed.json" });  // start (seeded); random token
//   emu.url, emu.token, emu.seeded          // what to point a program at; seeded.ids: key -> ID
//   emu.edit("site", id, { title: "Renamed in the app" })          // out-of-band edit, as in the app
//   emu.delete("section", id)               // out-of-band delete, with what goes with it
//   const state = emu.exportState()         // the whole state as JSON; emu.importState(state) again
//   emu.faults.add({ rateLimit: { burst: 3 } }), emu.log.count({ method: "POST" })
//   takeContractViolations()                // what broke GitBook's published spec so far
//   await emu.close()                       // stop
export { Emulator, takeContractViolations, type EmulatorOptions } from "./emulator";
export { SeedError, type SeedFile, type Seeded } from "./seed";
export type { EmulatorState } from "./admin";
// Type only: the checker itself (and ajv, @gitbook/api) loads only when `contract` is on.
export type { ContractViolation } from "./contract";
// The types of `emu.faults.add` and `emu.log`.
export type { FaultHandle, FaultSpec } from "./faults";
export type { LogEntry, RouteFilter } from "./log";
