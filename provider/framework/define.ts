/**
 * A resource is declared once, with `defineResource`: its input schema (the zod object whose fields
 * are described and carry their FieldRule, see fields.ts), its outputs schema, how an API object maps
 * onto both, and its CRUD. Everything else derives from that declaration: the input, output and Args
 * types, the diff and PATCH rules, the resource class with its typed outputs and secret outputs, and
 * the reference documentation (scripts/reference.ts).
 */
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { serializedShim } from "../shim";
import { type Cascade, FORCE_DESTROY } from "./cascade";
import type { DiffRules } from "./diff";
import { adoptIdField, ruleOf, type FieldRule } from "./fields";
import { NAMES, namesField, referenceFields, shownNames } from "./shown";
import { checkProgramConfig } from "../programConfig";
import { checked, declaresStructure, gated } from "./program";
import { partsOf } from "./claims";
import { adoptsOnce } from "./singleton";
import type { CreateSpec } from "./createOnce";
import type { PatchRules } from "./patch";
import { type Ctx, type Props, resourceProps } from "./resource";
import { DECLARED_KEY } from "./state";
import type { ImportRead, ImportRecord } from "./discover";

/**
 * What tells a create's object from its namesakes: the objects a create with these inputs could have
 * made (same kind and distinguishing fields, held or not) and their creation time, for kinds that have
 * one. The resource's create hands it to createOnce with the request; `pulumi-gitbook recover` uses it
 * to find what an interrupted run made.
 */
export type Lookalikes<T extends { id: string } = { id: string }> = Omit<CreateSpec<T>, "send">;

/**
 * What a create that takes entries of an existing object (a site's redirect rules, an object's
 * grants) may have left when its run was killed: the object's entries of the kinds it declares.
 */
export interface PendingEntries {
  /** The ID the resource would have: the object's. */
  id: string;
  /** Names the entries for the user, e.g. `redirect rules of site site_1`. */
  what: string;
  /** Each entry there now, with its creation time when GitBook gives one. */
  entries: { id: string; createdAt?: string }[];
  /** Whether the entries are exactly the declared ones (none missing, none otherwise, none more). */
  exact: boolean;
}

/**
 * An object an update of the resource may have made beside it without recording it (killed, or its
 * answer lost), for `pulumi-gitbook recover` to show with what could be it and the user to decide.
 */
export interface OpenWrite {
  /** Names it for the user, e.g. `the redirect rule from its old path "guides" in site site_1`. */
  what: string;
  /** The objects that could be it: the user takes one (`--adopt URN=ID`) or none (`--drop URN`). */
  candidates: { id: string; name?: string; createdAt?: string }[];
  /** The recorded outputs with the object `id` recorded as the resource's. */
  adopt(outputs: Props, id: string): Props;
  /** The recorded outputs without the record of it, so that the next update makes it. */
  drop(outputs: Props): Props;
}

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
  /**
   * The old object goes before its replacement is made: the two would collide, or they are one object
   * (the resource's ID is derived from what it declares, not made by GitBook at create), whose later
   * delete would undo what the replacement just set. Kinds of this framework that manage an existing
   * object's settings (settingsObject.ts) set it always. A list names the fields that tell the object
   * apart (an OpenAPI spec's slug): the old one goes first unless one of them changes, since the new
   * one would collide with it (and does, when the user forces a replacement with `up --replace`).
   */
  deleteBeforeReplace?: boolean | readonly string[];
  /**
   * Several resources of the kind may have one ID, each managing its own parts of one object (an
   * AccessList's `teams` and another's `users` on one site): the parts a resource with these inputs
   * or outputs manages. Without it an ID is one resource's whole object. Two resources declaring a
   * part of one object are refused, and a resource leaving the program does not delete an object whose
   * parts it manages another resource of the run has taken over (engine.ts).
   */
  parts?(props: Props): string[];
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
   * OpenAPI spec's file is hashed) or from the inputs state recorded (`olds`, when the resource is in
   * state: a section's old path to redirect), or fails naming the property.
   */
  prepare?(inputs: Props, olds?: Props): { inputs: Props } | { failures: { property: string; reason: string }[] };
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
  /**
   * For kinds whose authoritative lists write entries of another object (grants, redirect rules): the
   * keys of the entries `props` lists. The engine records them as written after each create and update
   * (WROTE_KEY, kept by refresh), and the kind's delete takes only entries `wrote` says it wrote.
   */
  listed?(props: Props): string[];
  /** GitBook deletes other objects with this one: the delete first refuses to take along what it holds (cascade.ts). Needs a `forceDestroy` input. */
  cascade?: Cascade;
  /**
   * For kinds whose create POSTs a new object (sending it twice makes two), or refuses the object an
   * earlier attempt made (a Permission's grant); absent for kinds set by a PUT. `pulumi-gitbook
   * recover` resolves a killed run's pending creates with it.
   */
  lookalikes?(ctx: Ctx, inputs: Inputs<S>): Lookalikes;
  /**
   * For kinds whose create writes entries of an existing object rather than making one (and refuses
   * entries it finds): the entries there now, which `pulumi-gitbook recover` adopts for a killed run's
   * pending create only with proof the run made them (provider/recover/plan.ts). Undefined: no object.
   */
  pending?(ctx: Ctx, inputs: Inputs<S>): Promise<PendingEntries | undefined>;
  /**
   * For kinds whose update makes objects of their own (a section's old-path redirect rules), for
   * `pulumi-gitbook recover`: `find`, what `recorded` outputs lack that `wanted` inputs (a pending
   * update's, else the recorded ones) ask for, each with what could be it in GitBook, not `held` by
   * state; `unconfirmed`, whether the outputs record such an object whose create was unconfirmed.
   */
  openWrites?: {
    find(ctx: Ctx, recorded: Props, wanted: Props | undefined, held: ReadonlySet<string>): Promise<OpenWrite[]>;
    unconfirmed(recorded: Props): boolean;
  };
  /**
   * Runs in the program's process as the class is constructed, before the resource is registered, for
   * rules no provider call can check because they span resources (a provider call sees one resource, and
   * at preview not even its IDs): it may refuse the declaration by throwing a pulumi.RunError that names
   * the resources and the fix, and returns what to record once the resource object exists.
   */
  inProgram?(name: string, args: Props): ((resource: pulumi.Resource) => void) | void;
  /**
   * Runs in the program's process as the class is constructed: the values of its `display` fields
   * (see fields.ts), from the program's args (e.g. the titles of the resources whose IDs it lists).
   */
  shown?(args: Props): Props;
  /**
   * Runs in the program's process as the class is constructed: inputs the program never sets, taken
   * from what it declares of other resources (a share link's `siteAddress`: its Site's basename and
   * proxy), so that a change there is a change of this resource too, which the plan shows and the
   * engine applies after them, when its update reads what the other's write changed (issue 42).
   */
  fromProgram?(args: Props): Props;
  /** How `pulumi-gitbook import` declares the kind's objects (importer/generate.ts). */
  import?: ImportSpec;
  /**
   * The kind declares part of the structure of the site its `siteId` names (sections, site spaces,
   * groups, links, their order), which a site-level Git Sync installation owns when there is one: its
   * check refuses such a site, and its refresh says why it drifts (gitSync.ts).
   */
  structure?: true;
}

/** What the importer cannot derive from a kind's fields. */
export interface ImportSpec {
  /** Appended to the Pulumi name to make the program's variable name (`-space`), where the name alone would not say what the object is. */
  variableSuffix?: string;
  /** How the importer finds the kind's objects (framework/discover.ts). */
  read?: ImportRead;
  /**
   * The generator declares each record as it is, after its site's own declarations (beside a DocsSite),
   * keyed from `key` within the site; kinds without it are declared by the generator's own code.
   */
  declare?: { key(record: ImportRecord, parents: readonly ImportRecord[]): string };
  /**
   * An item of a site's navigation (a section, a group, a link), whose records `read` puts under the
   * site: the generator names it within the site together with the other items (a DocsSite keys them
   * in one space), declares it after the items it refers to, lists it in the site's order, and writes
   * it as an entry of a DocsSite's `sections`.
   */
  navigation?: NavigationSpec;
}

/** How the importer writes an item of a site's navigation (ImportSpec.navigation). */
export interface NavigationSpec {
  /** What its name is made from (`slug(name(record), fallback)`): a title, a path. */
  name(record: ImportRecord): string;
  /** The word its name falls back to where `name` gives nothing to slug (`"group"`). */
  fallback: string;
  /** Its entry among a DocsSite's `sections`: `type` (absent: a section); `holds`, the record's key listing the IDs of the items it holds, in order. */
  docsSite: { type?: string; holds?: string };
  /**
   * What the record has that the kind has no input for, as comments above its declaration: any text
   * from GitBook in them quoted with `quote` (the generator's literal, so that it never becomes code).
   */
  comments?(record: ImportRecord, quote: (text: string) => string): string[];
}

/**
 * A declared resource: what the engine calls (engine.ts) and what the recipes need, all derived by
 * defineResource from its ResourceSpec.
 */
export interface Resource<S extends z.ZodObject = z.ZodObject, OS extends z.ZodObject = z.ZodObject, T = unknown>
  extends Pick<
    ResourceSpec<S, OS, T>,
    "kind" | "noun" | "summary" | "parts" | "holds" | "prepare" | "live" | "create" | "read" | "update" | "delete" | "listed" | "cascade" | "lookalikes" | "pending" | "openWrites" | "inProgram" | "shown" | "fromProgram" | "import" | "structure"
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
  /** Input fields shown in plans only (FieldRule `display`): outside `diff.fields`, kept by refresh. */
  display: string[];
  /** The references `names` shows (framework/shown.ts): empty for a kind that refers to no other object. */
  references: readonly string[];
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
  const adoptable = (spec.adoptable ? spec.inputs.safeExtend({ adoptId: adoptIdField(spec.adoptable === true ? undefined : spec.adoptable) }) : spec.inputs) as S;
  // A kind that refers to other objects gets `names`, which plans show beside their IDs.
  const references = referenceFields(adoptable.shape as Record<string, z.ZodType>);
  const schema = (references.length > 0 ? adoptable.safeExtend({ [NAMES]: namesField(references) }) : adoptable) as S;
  const shape = schema.shape as Record<string, z.ZodType>;
  const all = Object.entries(shape).map(([name, s]): [string, FieldRule] => [name, ruleOf(s)]);
  const display = all.filter(([, r]) => r.display === true).map(([n]) => n);
  // Engine fields steer the provider: never compared, sent or read; what plans only show is neither compared nor sent.
  const rules = all.filter(([, r]) => r.engine === undefined && r.display !== true);
  const named = (pred: (r: FieldRule) => boolean) => rules.filter(([, r]) => pred(r)).map(([n]) => n);
  const diff: DiffRules = {
    fields: rules.map(([n]) => n),
    replaceOn: named((r) => r.change === "replace"),
    liveFields: named((r) => r.live === true),
    nullValues: named((r) => r.nullIsValue === true),
    localFields: named((r) => r.local === true),
    deleteBeforeReplace: spec.deleteBeforeReplace ?? false,
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
    ...(spec.parts ? { parts: spec.parts } : {}),
    prepare: spec.prepare,
    create: spec.create,
    read: spec.read,
    update: spec.update,
    delete: spec.delete,
    ...(spec.listed ? { listed: spec.listed } : {}),
    ...(spec.cascade ? { cascade: spec.cascade } : {}),
    lookalikes: spec.lookalikes,
    ...(spec.pending ? { pending: spec.pending } : {}),
    ...(spec.openWrites ? { openWrites: spec.openWrites } : {}),
    inProgram: spec.inProgram,
    display,
    references,
    ...(spec.shown || references.length > 0 ? { shown: (args: Props) => ({ ...shownNames(references, args), ...spec.shown?.(args) }) } : {}),
    ...(spec.fromProgram ? { fromProgram: spec.fromProgram } : {}),
    ...(spec.import ? { import: spec.import } : {}),
    ...(spec.structure ? { structure: true as const } : {}),
  };
}

/** A resource's class as a program sees it: `new Site(name, args, opts)`, with every output typed. */
export type ResourceClass<S extends z.ZodObject, OS extends z.ZodObject> = new (
  name: string,
  args: ArgsOf<S>,
  opts?: pulumi.CustomResourceOptions,
) => pulumi.CustomResource & { readonly [K in keyof Outputs<S, OS>]-?: pulumi.Output<Outputs<S, OS>[K]> };

/**
 * Whether the engine deletes a resource of this kind before creating its replacement when the user
 * forces one (`up --replace`): it asks no diff then, and reads only the resource option, which the
 * resource class sets from this. A kind whose replacements delete first only when they would collide
 * (a list) is left create-first: its forced replacement fails on the collision, changing nothing.
 */
export function forcedReplacementDeletesFirst(def: Resource): boolean {
  return def.diff.deleteBeforeReplace === true;
}

/** The stack frames (the lines after the message) of a stack captured here, from the caller of `above` down. */
function framesBelow(above: Function): string {
  const holder: { stack?: string } = {};
  Error.captureStackTrace(holder, above);
  return (holder.stack ?? "").split("\n").slice(1).join("\n");
}

/**
 * The Pulumi resource class of a declared resource.
 *
 * It extends pulumi.CustomResource itself, with the `__provider` dynamic.Resource would set, because the
 * SDK records as a resource's source position (shown to users, kept in state) the fourth frame up from
 * its Resource constructor: through dynamic.Resource that frame was this class, so every resource
 * pointed into define.ts; one level fewer, it is the program's line.
 *
 * It registers the properties the program declares, the outputs schema's (what GitBook reports), and
 * the inputs check fills in without the program (organizationId from config, schema defaults), not every
 * input of the schema: the SDK makes an Output of four promises per registered property, and most
 * inputs of a kind are left unset. An input nobody set is still there as an Output of undefined.
 */
export function resourceClass<S extends z.ZodObject, OS extends z.ZodObject, T>(def: Resource<S, OS, T>): ResourceClass<S, OS> {
  const type = `pulumi-nodejs:dynamic/gitbook:${def.kind}`;
  const inputShape = def.schema.shape as Record<string, z.ZodType>;
  const outputKeys = Object.keys(def.outputs.shape);
  const filledByCheck = Object.keys(inputShape).filter((k) => k === "organizationId" || inputShape[k]!.safeParse(undefined).data !== undefined);
  const always = [...new Set([...outputKeys, ...filledByCheck])];
  const secrets = def.secretOutputs;
  class GitbookResource extends pulumi.CustomResource {
    constructor(name: string, args: ArgsOf<S>, opts?: pulumi.CustomResourceOptions) {
      // The stack's settings first: a setting that cannot work fails the run before anything is registered.
      const registered = checked(() => {
        checkProgramConfig();
        const done = def.inProgram?.(name, args as Props);
        if (def.structure) declaresStructure(def.kind, name, (args as Props).siteId);
        // After the kind's own checks, whose messages name what there is one of (a site's schema).
        if ("adoptId" in inputShape) adoptsOnce(def.kind, name, args as Props, partsOf(def, args as Props));
        return done;
      });
      // The SDK wraps every registered property in "debuggable" promises that each capture and format
      // a stack (through source-map-support): most of the program's CPU at 1000 resources. Nothing
      // reads those stacks unless PULUMI_DEBUG_PROMISE_LEAKS is set, so none are captured while the
      // resource is constructed, nor while the Outputs that `display` fields show are made (an apply
      // per reference). The SDK's source position is unaffected (it raises the limit itself to find
      // the program's line); an error thrown here gets the program's frames back below.
      const limit = Error.stackTraceLimit;
      Error.stackTraceLimit = 0;
      try {
        const given = def.fromProgram ? { ...args, ...def.fromProgram(args as Props) } : args;
        const props = resourceProps(name, def.shown ? { ...given, ...def.shown(given as Props) } : given, always);
        props.__provider = serializedShim(def.kind);
        super(
          type,
          name,
          props,
          {
            ...opts,
            // Registered once the program's checks across resources have passed (see program.ts).
            dependsOn: gated(opts?.dependsOn),
            // A replacement the user forces (`up --replace`) never reaches the provider's diff: the engine
            // takes its order from this option alone, so a kind whose old and new objects are one says it here.
            ...(forcedReplacementDeletesFirst(def) && opts?.deleteBeforeReplace === undefined ? { deleteBeforeReplace: true } : {}),
            // Secret outputs stay encrypted in state and masked in previews, whatever else the program marked.
            ...(secrets.length > 0 ? { additionalSecretOutputs: [...new Set([...(opts?.additionalSecretOutputs ?? []), ...secrets])] } : {}),
          },
        );
      } catch (e) {
        Error.stackTraceLimit = limit;
        if (e instanceof Error && typeof e.stack === "string" && !/\n\s+at /.test(e.stack)) e.stack = `${e.stack}\n${framesBelow(GitbookResource)}`;
        throw e;
      } finally {
        Error.stackTraceLimit = limit;
      }
      registered?.(this);
    }
  }
  // An input the program leaves unset is not registered; it reads as an Output of undefined (known
  // once the resource is, as its value is: the provider never reports an input it was not given).
  // The setter lets the SDK put the Output of a declared one on the instance, over this default.
  for (const k of Object.keys(inputShape)) {
    if (always.includes(k)) continue;
    Object.defineProperty(GitbookResource.prototype, k, {
      configurable: true,
      get(this: pulumi.CustomResource) {
        return this.id.apply(() => undefined);
      },
      set(this: pulumi.CustomResource, value: unknown) {
        Object.defineProperty(this, k, { value, writable: true, enumerable: true, configurable: true });
      },
    });
  }
  Object.defineProperty(GitbookResource, "name", { value: def.kind });
  // The members the class declares are the Outputs Pulumi sets on the instance from the property bag.
  return GitbookResource as unknown as ResourceClass<S, OS>;
}
