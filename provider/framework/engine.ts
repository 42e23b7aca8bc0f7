/**
 * Runs one provider call for one resource kind: the bridge between the host's dynamic-provider
 * protocol and a ResourceDef. Everything resource-independent about Pulumi's contract lives here:
 * `{}` from read when the object is gone, inputs returned from read so refresh shows drift, outputs
 * free of undefined, `__provider` kept on partial failures, the token checked before any request.
 */
import type * as pulumi from "@pulumi/pulumi";
import { configureFrom, currentConfig, getClient, type ConfigSource } from "../config";
import { checkInputs } from "./check";
import { changedFields, diffProps } from "./diff";
import { explainFailure } from "./failure";
import { adoptTargetMissing, cleanOutputs, NAME_KEY, PartialFailure, pickInputs, type Ctx, type Props, type ResourceDef } from "./resource";

function ctx(): Ctx {
  return { client: getClient(), config: currentConfig() };
}

function schemaFields(def: ResourceDef): string[] {
  return Object.keys(def.schema.shape);
}

function withProvider(e: unknown, from: Props): unknown {
  if (e instanceof PartialFailure) {
    e.properties = cleanOutputs({ ...e.properties, __provider: from.__provider });
  }
  return e;
}

/** Fails at configure when a setting is malformed, naming it; every later call fails the same way (see config.ts). */
export async function configure(req: { config?: ConfigSource } | undefined): Promise<void> {
  configureFrom(req?.config);
  currentConfig();
}

export async function check(def: ResourceDef, _olds: Props, news: Props): Promise<pulumi.dynamic.CheckResult> {
  currentConfig();
  const checked = checkInputs(def.schema, news, { organizationScoped: def.organizationScoped !== false });
  if (checked.failures.length) return { inputs: news, failures: checked.failures };
  const prepared = def.prepare ? def.prepare(checked.inputs) : { inputs: checked.inputs };
  if ("failures" in prepared) return { inputs: news, failures: prepared.failures };
  const inputs = prepared.inputs;
  // The resource's name, for messages: kept beside the inputs, never compared or sent.
  if (typeof news[NAME_KEY] === "string") inputs[NAME_KEY] = news[NAME_KEY];
  return { inputs };
}

export async function diff(def: ResourceDef, _id: string, olds: Props, news: Props): Promise<pulumi.dynamic.DiffResult> {
  const d = diffProps(def.diff, olds, news);
  return { changes: d.changes, replaces: d.replaces, deleteBeforeReplace: d.deleteBeforeReplace };
}

export async function create(def: ResourceDef, inputs: Props): Promise<pulumi.dynamic.CreateResult> {
  try {
    const c = ctx();
    const adoptId = inputs.adoptId;
    if (typeof adoptId === "string" && adoptId) {
      const live = await def.read(c, adoptId, stripProvider(inputs));
      if (!live) throw adoptTargetMissing(def.kind, adoptId);
      // What would force a replacement cannot be converged by an update: adopting would record a lie.
      const fixed = changedFields(def.diff, live, inputs).filter((f) => def.diff.replaceOn.includes(f));
      if (fixed.length > 0) {
        const has = fixed.map((f) => `${f}=${JSON.stringify(live[f] ?? null)}`).join(", ");
        throw new Error(
          `${def.kind}: adoptId "${adoptId}" names an object with ${has}, which cannot change in place; adopt one that matches the program's ${fixed.join(", ")} or remove adoptId to create a new one.`,
        );
      }
      const outs = await def.update(c, adoptId, live, stripProvider(inputs));
      return { id: adoptId, outs: cleanOutputs(outs) };
    }
    const { id, outs } = await def.create(c, stripProvider(inputs));
    return { id, outs: cleanOutputs(outs) };
  } catch (e) {
    throw explainFailure(def, inputs, undefined, withProvider(e, inputs));
  }
}

export async function read(def: ResourceDef, id: string, props: Props): Promise<pulumi.dynamic.ReadResult> {
  let live: Props | undefined;
  try {
    live = await def.read(ctx(), id, stripProvider(props));
  } catch (e) {
    throw explainFailure(def, props, id, e);
  }
  // An empty result is how a dynamic provider tells the engine the object is gone.
  if (!live) return {};
  const outs = cleanOutputs(live);
  const inputs = def.toInputs ? def.toInputs(outs) : pickInputs(schemaFields(def), outs);
  return { id, props: outs, inputs: cleanOutputs(inputs) } as pulumi.dynamic.ReadResult;
}

export async function update(def: ResourceDef, id: string, olds: Props, news: Props): Promise<pulumi.dynamic.UpdateResult> {
  try {
    const outs = await def.update(ctx(), id, stripProvider(olds), stripProvider(news));
    return { outs: cleanOutputs(outs) };
  } catch (e) {
    throw explainFailure(def, news, id, withProvider(e, news));
  }
}

export async function remove(def: ResourceDef, id: string, props: Props): Promise<void> {
  try {
    await def.delete(ctx(), id, stripProvider(props));
  } catch (e) {
    throw explainFailure(def, props, id, e);
  }
}

/** The inputs or outputs without what the engine and the resource class add for themselves. */
function stripProvider(p: Props): Props {
  const { __provider: _provider, [NAME_KEY]: _name, ...rest } = p;
  return rest;
}
