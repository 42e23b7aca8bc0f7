// `pulumi-gitbook/emulator`: the GitBook API emulator, for testing a program offline.
//
//   const emu = await Emulator.start();   // seeded organization, spaces and members; random token
//   emu.url, emu.token, emu.seeded         // what to point a program at
//   emu.faults.add({ rateLimit: { burst: 3 } }), emu.log.count({ method: "POST" }), await emu.close()
export { Emulator, takeContractViolations, type EmulatorOptions } from "./emulator";
// Type only: the checker itself (and ajv, @gitbook/api) loads only when `contract` is on.
export type { ContractViolation } from "./contract";
export {
  ERROR_WINDOW,
  Faults,
  type DropAfterProcessFault,
  type DropBeforeProcessFault,
  type ErrorRateFault,
  type FaultHandle,
  type FaultPlan,
  type FaultSpec,
  type LatencyFault,
  type RateLimitFault,
} from "./faults";
export { LIMITS, LIST_LIMIT } from "./http";
export { RequestLog, type LogEntry, type RouteFilter } from "./log";
export * from "./store";
