/**
 * What a `pulumi` run reports (its steps, error, check failures) and the state it leaves, in the
 * shapes dev/pulumiCli.ts reads them into from the engine's event log and `pulumi stack export`.
 */
export type Props = Record<string, unknown>;

export interface CheckFailure {
  property: string;
  reason: string;
}

export type Op = "preview" | "up" | "refresh" | "destroy";
export type StepKind = "create" | "update" | "replace" | "delete" | "same" | "refresh" | "read-gone";

export interface Step {
  urn: string;
  type: string;
  name: string;
  op: StepKind;
  /** Input fields that differ (for updates and replaces), or that drifted (refresh). */
  changed?: string[];
  replaces?: string[];
}

export interface ResourceState {
  urn: string;
  type: string;
  name: string;
  custom: boolean;
  parent?: string;
  id?: string;
  inputs: Props;
  outputs: Props;
  additionalSecretOutputs?: string[];
  /** Deleted by a delete-before-replace whose replacement has not been created yet (the engine keeps it so marked). */
  pendingReplacement?: boolean;
}

export interface StateFile {
  version: 1;
  resources: ResourceState[];
  /** Stack outputs from the last up. */
  outputs?: Props;
}

export interface RunReport {
  op: Op;
  steps: Step[];
  outputs?: Props;
  /**
   * Why the run failed. When a provider call failed, its message, as the engine reports it against
   * the resource (and not the program's own error, which is only a consequence: a dependent's
   * `error serializing property ...`, or nothing at all when no one used the failed resource's outputs).
   */
  error?: string;
  /**
   * What an `up --refresh` read before it planned, one step per resource (op `refresh` or `same`, as a
   * refresh's), with the inputs the read recorded.
   */
  refreshed?: (Step & { inputs?: Props })[];
  /** The resource whose provider call failed, when one did. */
  failed?: { urn: string; type: string; name: string };
  checkFailures?: (CheckFailure & { urn: string })[];
}
