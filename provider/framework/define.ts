/**
 * A resource is declared once, with `defineResource`: its input schema (the zod object whose fields
 * are described and carry their FieldRule, see fields.ts), its outputs schema, how an API object maps
 * onto both, and its CRUD. Everything else derives from that declaration: the input, output and Args
 * types, the diff and PATCH rules, the resource class with its typed outputs and secret outputs, and
 * the reference documentation (scripts/reference.ts).
 */
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { providerFor } from "../shim";
import { type Cascade, FORCE_DESTROY } from "./cascade";
import type { DiffRules } from "./diff";
import { adoptIdField, ruleOf, type FieldRule } from "./fields";
import { checked, gated } from "./program";
import type { CreateSpec } from "./createOnce";
import type { PatchRules } from "./patch";
import { type Ctx, type Props, resourceProps } from "./resource";
import { DECLARED_KEY } from "./state";

/**
 * What tells a create's object from its namesakes: the objects a create with these inputs could have
 * made (same kind and distinguishing fields, held or not) and their creation time, for kinds that have
 * one. The resource's create hands it to createOnce with the request; `pulumi-gitbook recover` uses it
 * to find what an interrupted run made.
 */
export type Lookalikes<T extends { id: string } = { id: string }> = Omit<CreateSpec<T>, "send">;

/** A resource's inputs after check: what its schema produces. */
export type Inputs<S extends z.ZodObject> = z.output<S>;

/** A resource's outputs: its declared inputs, overlaid with what the outputs schema says about the object. */
export type Outputs<S extends z.ZodObject, OS extends z.ZodObject> = Omit<z.output<S>, keyof z.output<OS>> & z.output<OS>;

/** A program may pass an Output anywhere inside an input, as Pulumi resolves nested values. */
type InputOf<T> = [T] extends [string | number | boolean | null | undefined]
  ? pulumi.Input<T>
  : T extends readonly (infer U)[]
    ? pulumi.Input<InputOf<U>[]>
    : T extends object
      ? pulumi.Input<{ [K in keyof T]: InputOf<T[K]> }>
      : pulumi.Input<T>;

type WithOptionalOrganization<A> = "organizationId" extends keyof A ? Omit<A, "organizationId"> & { organizationId?: pulumi.Input<string> } : A;

/** The class's constructor arguments: every input as a Pulumi Input, `organizationId` from config when absent. */
export type ArgsOf<S extends z.ZodObject> = WithOptionalOrganization<{ [K in keyof z.input<S>]: InputOf<z.input<S>[K]> }>;

/** What a resource module declares. `T` is the API's object for the resource. */
export interface ResourceSpec<S extends z.ZodObject, OS extends z.ZodObject, T> {
  /** Type name, e.g. "Site"; the Pulumi type token is `pulumi-nodejs:dynamic/gitbook:<kind>`. */
  kind: string;
  /** What the object is called in messages, e.g. "share link". */
  noun: string;
  /** One paragraph for the reference. */
  summary: string;
  inputs: S;
  /** Outputs that are not inputs, and live fields restated with the type the object always has. */
  outputs: OS;
  /**
   * The kind can bring an existing object under management: defineResource adds `adoptId` to its
   * inputs (see adoptIdField), with this wording when it is a string.
   */
  adoptable?: true | string;
  /** The replacement would collide with the old object, so the old one must go first. */
  deleteBeforeReplace?: boolean;
  /**
   * What deleting the object takes with it (e.g. "its pages"), for kinds that hold content: a plan
   * that would replace one fails unless the program sets `allowReplacement: true` (engine.diff).
   */
  holds?: string;
  /** Maps a property bag to its comparable view (e.g. a document to its hash). */
  view?: (props: Props) => Props;
  /** Every input the API reports for `obj`, keyed like the inputs (undefined when shown unset). */
  live(obj: T, props: Props): Props;
  /** The outputs-schema part of the outputs, from the object (and the resource's recorded props). */
  computed(obj: T, props: Props): z.output<OS>;
  /**
   * Runs at check on inputs the schema accepted: completes them from outside the program (an
   * OpenAPI spec's file is hashed), or fails naming the property.
   */
  prepare?(inputs: Props): { inputs: Props } | { failures: { property: string; reason: string }[] };
  create(ctx: Ctx, inputs: Inputs<S>): Promise<{ id: string; outs: Outputs<S, OS> }>;
  /**
   * Live outputs for the object, with every input field present in `props` refreshed from the API;
   * undefined when the object is gone.
   */
  read(ctx: Ctx, id: string, props: Outputs<S, OS>): Promise<Outputs<S, OS> | undefined>;
  /**
   * Converges the object from `olds` (outputs) to `news` (inputs), sending only what changed:
   * `changed`, the fields the engine found changed (diff.ts), once for the call.
   */
  update(ctx: Ctx, id: string, olds: Outputs<S, OS>, news: Inputs<S>, changed: readonly string[]): Promise<Outputs<S, OS>>;
  /** Idempotent. */
  delete(ctx: Ctx, id: string, props: Outputs<S, OS>): Promise<void>;
  /** GitBook deletes other objects with this one: the delete first refuses to take along what it holds (cascade.ts). Needs a `forceDestroy` input. */
  cascade?: Cascade;
  /** For kinds whose create POSTs a new object (sending it twice makes two); absent for kinds set by a PUT. */
  lookalikes?(ctx: Ctx, inputs: Inputs<S>): Lookalikes;
  /**
   * Runs in the program's process as the class is constructed, before the resource is registered, for
   * rules no provider call can check because they span resources (a provider call sees one resource, and
   * at preview not even its IDs): it may refuse the declaration by throwing a pulumi.RunError that names
   * the resources and the fix, and returns what to record once the resource object exists.
   */
  inProgram?(name: string, args: Props): ((resource: pulumi.Resource) => void) | void;
}

/**
 * A declared resource: what the engine calls (engine.ts) and what the recipes need, all derived by
 * defineResource from its ResourceSpec.
 */
export interface Resource<S extends z.ZodObject = z.ZodObject, OS extends z.ZodObject = z.ZodObject, T = unknown>
  extends Pick<
    ResourceSpec<S, OS, T>,
    "kind" | "noun" | "summary" | "holds" | "prepare" | "live" | "create" | "read" | "update" | "delete" | "cascade" | "lookalikes" | "inProgram"
  > {
  /** Input schema (with `adoptId` for an adoptable kind): validates at check, and its `.describe()` texts are the documentation. */
  schema: S;
  outputs: OS;
  diff: DiffRules;
  patch: PatchRules & CreateRules;
  /** Output names that are secrets. */
  secretOutputs: string[];
  /** Engine fields (FieldRule.engine) whose recorded value refresh keeps: `adoptId`. */
  recordedEngineFields: readonly string[];
  /** The outputs for an object: `declaredInputs` (as recorded or as refreshed), then what the object says. */
  outputsOf(declaredInputs: Props, obj: T, props?: Props): Outputs<S, OS>;
}

/** What a create sends, by FieldRule.create. */
export interface CreateRules {
  /** Fields the creating request carries. */
  post: readonly string[];
  /** Fields the one PATCH after it carries. */
  afterCreate: readonly string[];
}

/** The input schema of an adoptable kind: its own fields and `adoptId`. */
export type WithAdoptId<S extends z.ZodObject> = z.ZodObject<S["shape"] & { adoptId: ReturnType<typeof adoptIdField> }>;

export function defineResource<S extends z.ZodObject, OS extends z.ZodObject, T>(
  spec: ResourceSpec<S, OS, T> & { adoptable: true | string },
): Resource<WithAdoptId<S>, OS, T>;
export function defineResource<S extends z.ZodObject, OS extends z.ZodObject, T>(spec: ResourceSpec<S, OS, T>): Resource<S, OS, T>;
export function defineResource<S extends z.ZodObject, OS extends z.ZodObject, T>(spec: ResourceSpec<S, OS, T>): Resource<S, OS, T> {
  // safeExtend keeps the object's own refinements (a space's emoji-or-icon rule).
  const schema = (spec.adoptable ? spec.inputs.safeExtend({ adoptId: adoptIdField(spec.adoptable === true ? undefined : spec.adoptable) }) : spec.inputs) as S;
  const shape = schema.shape as Record<string, z.ZodType>;
  const all = Object.entries(shape).map(([name, s]): [string, FieldRule] => [name, ruleOf(s)]);
  // Engine fields steer the provider: never compared, sent or read.
  const rules = all.filter(([, r]) => r.engine === undefined);
  const named = (pred: (r: FieldRule) => boolean) => rules.filter(([, r]) => pred(r)).map(([n]) => n);
  const diff: DiffRules = {
    fields: rules.map(([n]) => n),
    replaceOn: named((r) => r.change === "replace"),
    liveFields: named((r) => r.live === true),
    nullValues: named((r) => r.nullIsValue === true),
    localFields: named((r) => r.local === true),
    deleteBeforeReplace: spec.deleteBeforeReplace === true,
    ...(spec.view ? { view: spec.view } : {}),
  };
  const onRemove: Props = {};
  for (const [n, r] of rules) if (typeof r.remove === "object") onRemove[n] = r.remove.reset;
  const wire: Record<string, string> = {};
  for (const [n, r] of rules) if (r.wire) wire[n] = r.wire;
  const patch: PatchRules & CreateRules = {
    patchable: named((r) => (r.change ?? "update") === "update" && r.local !== true),
    nullable: named((r) => r.remove === "clear"),
    onRemove,
    nullValues: diff.nullValues ?? [],
    wire,
    post: named((r) => r.create === "post"),
    afterCreate: named((r) => r.create === "patch"),
  };
  if (spec.cascade && !(FORCE_DESTROY in shape)) throw new Error(`${spec.kind}: a kind whose delete takes others along must declare ${FORCE_DESTROY} (forceDestroyField)`);
  const outputShape = spec.outputs.shape as Record<string, z.ZodType>;
  return {
    kind: spec.kind,
    noun: spec.noun,
    summary: spec.summary,
    schema,
    outputs: spec.outputs,
    diff,
    patch,
    secretOutputs: Object.keys(outputShape).filter((k) => ruleOf(outputShape[k]!).secret === true),
    recordedEngineFields: all.filter(([, r]) => r.engine === "recorded").map(([n]) => n),
    live: spec.live,
    // The one place a resource's outputs are assembled from its parts, with which live fields the
    // program declared (the outputs hold every live field's value either way; see DECLARED_KEY).
    outputsOf: (declaredInputs, obj, props = declaredInputs) =>
      ({
        ...declaredInputs,
        ...spec.computed(obj, props),
        ...(diff.liveFields!.length > 0 ? { [DECLARED_KEY]: diff.liveFields!.filter((f) => declaredInputs[f] !== undefined) } : {}),
      }) as Outputs<S, OS>,
    ...(spec.holds ? { holds: spec.holds } : {}),
    prepare: spec.prepare,
    create: spec.create,
    read: spec.read,
    update: spec.update,
    delete: spec.delete,
    ...(spec.cascade ? { cascade: spec.cascade } : {}),
    lookalikes: spec.lookalikes,
    inProgram: spec.inProgram,
  };
}

/** A resource's class as a program sees it: `new Site(name, args, opts)`, with every output typed. */
export type ResourceClass<S extends z.ZodObject, OS extends z.ZodObject> = new (
  name: string,
  args: ArgsOf<S>,
  opts?: pulumi.CustomResourceOptions,
) => pulumi.dynamic.Resource & { readonly [K in keyof Outputs<S, OS>]-?: pulumi.Output<Outputs<S, OS>[K]> };

/** The Pulumi resource class of a declared resource. */
export function resourceClass<S extends z.ZodObject, OS extends z.ZodObject, T>(def: Resource<S, OS, T>): ResourceClass<S, OS> {
  const computedOutputs = Object.keys(def.outputs.shape).filter((k) => !(k in def.schema.shape));
  const secrets = def.secretOutputs;
  class GitbookResource extends pulumi.dynamic.Resource {
    constructor(name: string, args: ArgsOf<S>, opts?: pulumi.CustomResourceOptions) {
      const registered = def.inProgram && checked(() => def.inProgram!(name, args as Props));
      super(
        providerFor(def.kind),
        name,
        resourceProps(name, def.schema, args, computedOutputs),
        {
          ...opts,
          // Registered once the program's checks across resources have passed (see program.ts).
          dependsOn: gated(opts?.dependsOn),
          // Secret outputs stay encrypted in state and masked in previews, whatever else the program marked.
          ...(secrets.length > 0 ? { additionalSecretOutputs: [...new Set([...(opts?.additionalSecretOutputs ?? []), ...secrets])] } : {}),
        },
        "gitbook",
        def.kind,
      );
      registered?.(this);
    }
  }
  Object.defineProperty(GitbookResource, "name", { value: def.kind });
  // The members the class declares are the Outputs Pulumi sets on the instance from the property bag.
  return GitbookResource as unknown as ResourceClass<S, OS>;
}
