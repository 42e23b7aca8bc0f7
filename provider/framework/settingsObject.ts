/**
 * Kinds that manage the settings of an object every parent already has, one per parent (a site's
 * customization, a site space's overrides, whether a site is published): there is nothing to create
 * and nothing to delete, only settings to read, converge and leave.
 *
 * Written once here, so that such a kind declares its fields, the object's path and how GitBook takes
 * a write (`write`), and nothing else:
 * - The resource's ID is the parent's (`target.field`). Creating it reads the object (failing, naming
 *   the target field, when the parent is not there) and sends a write only when the declared settings
 *   do not already hold; no `adoptId` is needed (what is there is taken as it is), and sending a write
 *   again after a lost answer does no harm (no createOnce).
 * - Read refreshes the declared settings alone (recipes.refreshed), so an app edit of a declared
 *   setting shows as drift and any other edit shows as nothing; the diff compares declared settings only.
 * - Deleting it forgets the settings (they are the parent's), or, where a write sets overrides,
 *   clears the ones the resource declares and no others.
 * - With `target.one`, a parent has one such resource: a second is refused (singleton.ts).
 */
import equal from "fast-deep-equal";
import type { z } from "zod";
import { defineResource, type Inputs, type Outputs, type Resource, type ResourceSpec } from "./define";
import { getOrUndefined } from "./lists";
import { goneFromState, refreshed } from "./recipes";
import type { Ctx, Props } from "./resource";
import { declaredPart, declaredSettings, mergeDeclared, overridesPatch, withoutInherited } from "./settings";
import { claimOnly, onePerTarget } from "./singleton";
import { declared } from "./state";

/**
 * How GitBook takes the declared settings.
 * - `replace`: a PUT of the whole object at the kind's path (these are its settings, a settingsGroup).
 *   Every write reads the object, puts the declared settings in and sends the rest back as GitBook had
 *   it, down to a single field of a group; what the outputs schema declares (a change time) is
 *   GitBook's, never sent back. Removing a setting leaves it as it is.
 * - `overrides`: a PATCH at the kind's path that sets what it carries, where null clears an override
 *   and the GET answers the effective settings. A write sends the declared overrides that changed
 *   (descending into groups), null for each no longer declared; deleting clears the declared ones.
 * - `call`: a request of the kind's own that sets the declared settings (a site's publish call), sent
 *   when what the object shows (the kind's `live`) differs from them.
 */
export type SettingsWrite<S extends z.ZodObject, T> =
  | { replace: z.ZodObject }
  | {
      overrides: z.ZodObject;
      /**
       * Where what the overrides are over is read (a site space's: its site's settings). The GET of the
       * object answers the effective settings, so a declared value it shows may only be inherited: the
       * create sends the ones `over` shows too, making them overrides, or the next change of what they
       * are over (the site's branding) would change what the program declares.
       */
      over?(props: Props): string;
    }
  | { call(ctx: Ctx, given: Inputs<S>): Promise<T> };

/** What a settings-object kind declares: the resource's declaration but its CRUD, and the object's. */
export interface SettingsObjectSpec<S extends z.ZodObject, OS extends z.ZodObject, T>
  extends Omit<ResourceSpec<S, OS, T>, "create" | "read" | "update" | "delete" | "inProgram" | "adoptable" | "lookalikes" | "pending" | "cascade"> {
  /** The parent whose object this is: its ID is the resource's. */
  target: {
    /** The input holding the parent's ID (`siteId`); it replaces the resource when changed. */
    field: keyof z.output<S> & string;
    /** What the parent is called in messages (`site space`). */
    noun: string;
    /** Where the parent lives, for messages (`organization org_1`, `site site_1`). */
    within(props: Inputs<S>): string;
    /** The end of the message when the parent is not there: `the ID is wrong (pass the Site's id output)`. */
    wrongId: string;
    /** A parent has one such resource: a second is refused, in the program or at create. */
    one?: true;
  };
  /** Where the object is read (GET), and written by `replace` and `overrides`. */
  path(props: Inputs<S>): string;
  /** The object as GitBook answers it. */
  schema: z.ZodType<T>;
  write: SettingsWrite<S, T>;
}

/** defineResource for a kind managing an existing object's settings (see the file's comment). */
export function defineSettingsObject<S extends z.ZodObject, OS extends z.ZodObject, T extends object>(spec: SettingsObjectSpec<S, OS, T>): Resource<S, OS, T> {
  const { target, path, schema, write, ...declaration } = spec;
  const { kind } = spec;
  const targetOf = (props: Inputs<S>) => (props as Props)[target.field] as string;
  const get = (ctx: Ctx, props: Inputs<S>) => getOrUndefined(ctx.client.get(path(props), { schema }));
  const outputs = (given: Inputs<S>, obj: T) => def.outputsOf(declared(given as Props), obj);

  /** The object, which every parent has: its absence is the program's mistake (or an app deletion). */
  async function existing(ctx: Ctx, given: Inputs<S>): Promise<T> {
    const now = await get(ctx, given);
    if (!now) throw new Error(`${kind}: ${target.field}: no ${target.noun} ${targetOf(given)} in ${target.within(given)}; it was deleted, or ${target.wrongId}.`);
    return now;
  }

  /** The update's (and, but for `overrides`, the create's) write: the object as it is after it. */
  let converge: (ctx: Ctx, given: Inputs<S>, olds?: Props) => Promise<Outputs<S, OS>>;
  /** The first write, once the parent is claimed. */
  let first = (ctx: Ctx, given: Inputs<S>) => converge(ctx, given);
  let remove = async (_ctx: Ctx, _props: Outputs<S, OS>): Promise<void> => {};

  if ("replace" in write) {
    const settings = write.replace;
    const computed = Object.keys(spec.outputs.shape);
    converge = async (ctx, given) => {
      const now = await existing(ctx, given);
      const current: Props = { ...(now as Props) };
      for (const k of computed) delete current[k];
      const merged = mergeDeclared(settings, current, declaredSettings(settings, given as Props)) as Props;
      const after = equal(merged, current) ? now : await ctx.client.put(path(given), { body: merged, schema });
      return outputs(given, after);
    };
  } else if ("overrides" in write) {
    const settings = write.overrides;
    const settingsOf = (props: Props) => declaredSettings(settings, props);
    /** The PATCH taking the overrides from `from` to what `given` declares; without one, the object read again. */
    converge = async (ctx, given, from) => {
      const body = overridesPatch(settings, from, settingsOf(given as Props));
      const after = body === undefined ? await get(ctx, given) : await ctx.client.patch(path(given), { body, schema });
      if (!after) throw goneFromState(def, targetOf(given), ` (the ${target.noun} is gone from ${target.within(given)})`);
      return outputs(given, after);
    };
    // The update's `from` is what state recorded; the create's is what the object shows (its own
    // overrides, or the values it inherits, taken as they are), and only what differs is sent.
    // A declared value the object shows as what it is over shows it may be inherited, not an override:
    // it is sent as well (read only when some declared value is shown already).
    first = async (ctx, given) => {
      const now = await existing(ctx, given);
      const wanted = settingsOf(given as Props);
      let shown = declaredPart(settings, now, wanted) as Props;
      if (write.over && !equal(overridesPatch(settings, undefined, wanted), overridesPatch(settings, shown, wanted))) {
        const base = await getOrUndefined(ctx.client.get(write.over(given as Props), { schema }));
        shown = withoutInherited(settings, shown, declaredPart(settings, base ?? {}, wanted)) as Props;
      }
      return equal(shown, wanted) ? outputs(given, now) : converge(ctx, given, shown);
    };
    // Only the declared overrides: GitBook's DELETE would also drop those made in the app; a parent already gone is success.
    remove = async (ctx, props) => {
      const body = overridesPatch(settings, settingsOf(props as Props), {});
      if (body !== undefined) await getOrUndefined(ctx.client.patch(path(props as Inputs<S>), { body, schema }));
    };
  } else {
    converge = async (ctx, given) => {
      const now = await existing(ctx, given);
      const live = def.live(now, given as Props);
      const holds = Object.keys(live).every((k) => (given as Props)[k] === undefined || equal(live[k], (given as Props)[k]));
      return outputs(given, holds ? now : await write.call(ctx, given));
    };
  }

  const def: Resource<S, OS, T> = defineResource<S, OS, T>({
    ...declaration,
    // Old and new are one object: a replacement's create, then the old one's delete, cleared overrides
    // the create had just set (seen through the CLI with `up --replace`).
    deleteBeforeReplace: true,
    async create(ctx, given) {
      if (target.one) claimOnly(ctx, kind, targetOf(given), target.noun);
      return { id: targetOf(given), outs: await first(ctx, given) };
    },
    async read(ctx, _id, props) {
      const now = await get(ctx, props as Inputs<S>);
      return now && refreshed(def, props, now);
    },
    update: (ctx, _id, olds, news) => converge(ctx, news, "overrides" in write ? declaredSettings(write.overrides, olds as Props) : undefined),
    delete: (ctx, _id, props) => remove(ctx, props),
    ...(target.one ? { inProgram: onePerTarget(kind, target.field, target.noun) } : {}),
  });
  return def;
}
