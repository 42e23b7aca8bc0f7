/**
 * `redirectOldPath`: what SiteSection and SiteSpace share so that a change of their `path` keeps the
 * published links of the old path working, with a redirect rule of the site from the old path to the
 * new one (opt-in).
 *
 * The rules a resource owns are the earlier paths it keeps redirected, `oldPathRedirects`: an input
 * the provider computes at check from the recorded inputs and the new ones (the program never sets
 * it), so the plan shows the redirect it adds beside the path change (`+ oldPathRedirects: [{path:
 * "guides-v1"}]`). Each entry stands for one live rule of the site, from the old path and everything
 * under it (`/<old>/*`, the wildcard captured) to the resource's current published URL; the rule IDs
 * the resource created are recorded in its outputs (OWNED_KEY) with their sources, the proof of
 * ownership: a rule it did not create is never edited or deleted by it. A rule keeps the source it was
 * made with (the published address the old path had), even when the resource's parent moves later (a
 * site space's section): that address is the one published links use.
 *
 * Chains and loops are never created: every owned rule points at the current path, so a move a → b
 * then b → c rewrites the owned a → b to a → c (one PATCH), and a move back to a path an owned rule
 * redirects from deletes that rule. A refresh reads the owned rules: one deleted or changed in the
 * app shows as that entry's `status`, and the next `up` puts it back. Turning the option off deletes
 * the rules the resource owns, as deleting the resource does (they point at a path no longer there).
 *
 * The history lives in the recorded inputs, which refresh keeps: a refresh only marks an entry, never
 * drops it, so what the program asked for survives a rule deleted in the app.
 */
import { z } from "zod";
import { GitbookError } from "../client";
import { createOnce, UnconfirmedCreateError } from "../framework/createOnce";
import type { OpenWrite } from "../framework/define";
import { field } from "../framework/fields";
import { UNKNOWN } from "../framework/check";
import { PartialFailure } from "../framework/failure";
import type { Ctx, Props } from "../framework/resource";
import { declared } from "../framework/state";
import type { PatchRules } from "../framework/patch";
import { changedBody, goneFromState } from "../framework/recipes";
import { ApiSiteRedirect, paths, publishedUrl, ruleProblems, liveDestination, type Placed } from "./redirectRules";

// ---- Fields ----------------------------------------------------------------------------------------

export const redirectOldPathField = (noun: string) =>
  z
    .boolean({ error: "must be a boolean" })
    .optional()
    .describe(
      `When true, a change of this ${noun}'s declared \`path\` adds a redirect rule of the site from the old path (and every page under it) to the new one, so published links keep working; the plan shows it as an entry of \`oldPathRedirects\`. ` +
        "The rule is created in the same update, after the path changes, and is this resource's: a later move rewrites it to the newest path (never a chain), a move back to an old path deletes that path's rule (never a loop), and deleting the resource or turning this off deletes its rules. " +
        "A rule for the old path made elsewhere (in the app, by a SiteRedirect) is never taken over or changed: the update fails naming it. The site must be published, and its rules must not be held by a SiteRedirects (refused at preview). " +
        "Only a change between two declared paths is redirected (a path first declared has no recorded old one). Never sent to GitBook.",
    )
    .register(field, { local: true });

const entry = z.object({
  path: z.string().describe("An earlier `path` of the resource, redirected to its current one."),
  status: z
    .string()
    .optional()
    .describe(
      "Set by a refresh when the rule is no longer as this resource made it (`deleted in GitBook`, `changed in GitBook`), or by an update whose rule could not be made or confirmed (`not created`, `not confirmed`): the next `up` puts it back, or finds it.",
    ),
});
export type OldPathEntry = z.output<typeof entry>;

export const oldPathRedirectsField = () =>
  z
    .array(entry)
    .optional()
    .describe(
      "Set by the provider, never by the program (a declared value is replaced at check): the earlier paths this resource keeps redirected to its current path, one rule each, while `redirectOldPath` is true. A plan that changes `path` shows the entry it adds (or removes, for a move back).",
    )
    // Converged by the kind's update (redirectOldPaths), never sent in the object's PATCH.
    .register(field, { change: "custom", import: false });

/**
 * The rules a resource made, by the old path each redirects from: its ID and the source it was made
 * with; the only rules it edits and deletes. Kept in its outputs under OWNED_KEY, bookkeeping like
 * DECLARED_KEY: not in the outputs schema, so the class registers no property for it (each costs the
 * program four promises per resource, see resourceClass), and never an input.
 */
export type Owned = Record<string, OwnedRule>;
/**
 * A rule's ID and source; or, for a rule whose create got no answer while the listing to find it
 * failed too (createOnce's UnconfirmedCreateError), no ID yet but when it was sent and the rules of
 * that source listed just before: the next update looks for it before anything else (settleUnconfirmed).
 */
export interface OwnedRule {
  id: string;
  source: string;
  unconfirmed?: { sentAt: string; before: string[] | null };
}
export const OWNED_KEY = "oldPathRedirectRules";

/** The rules recorded outputs say the resource made. */
export const ownedIn = (outs: object): Owned | undefined => (outs as Props)[OWNED_KEY] as Owned | undefined;

/** The inputs SiteSection and SiteSpace declare for it. */
export const inputs = (noun: string) => ({ redirectOldPath: redirectOldPathField(noun), oldPathRedirects: oldPathRedirectsField() });

// ---- At check ----------------------------------------------------------------------------------------

/**
 * The inputs with `oldPathRedirects` computed from the recorded inputs (`olds`, undefined when the
 * resource is not in state yet): the recorded entries, plus the old path when `path` changes, less
 * the new path (a move back), each entry as wanted (no status). Absent when the option is off or no
 * entry is left, so that turning it on alone changes nothing that needs a request.
 */
export function withOldPaths(inputs: Props, olds: Props | undefined): Props {
  const out = { ...inputs };
  delete out.oldPathRedirects;
  if (inputs.redirectOldPath !== true) return out;
  let wanted = Array.isArray(olds?.oldPathRedirects) ? (olds.oldPathRedirects as OldPathEntry[]).map((e) => e.path) : [];
  const from = olds?.path;
  const to = inputs.path;
  // A path still unknown at preview: the move is seen when it is known, at up.
  if (typeof from === "string" && typeof to === "string" && to !== UNKNOWN && from !== to) wanted = [...wanted.filter((p) => p !== from), from];
  if (typeof to === "string") wanted = wanted.filter((p) => p !== to);
  if (wanted.length > 0) out.oldPathRedirects = wanted.map((path) => ({ path }));
  return out;
}

// ---- Rules -------------------------------------------------------------------------------------------

/** One segment as a URL carries it, escaped so that it is a valid source segment (GitBook's pattern has no `!'()*`). */
const segment = (p: string) => encodeURIComponent(p).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** Where the resource is published, relative to the site: its URL less the site's, e.g. `/guides/v2`. */
function relativePath(siteUrl: string, url: string | undefined): string | undefined {
  if (!url) return undefined;
  const clean = url.replace(/\/+$/, "");
  return clean.startsWith(`${siteUrl}/`) ? clean.slice(siteUrl.length) : undefined;
}

/** The rule's source for an old path: the current URL's parent, the old segment, and everything under it. */
const sourceFor = (current: string, old: string) => `${current.slice(0, current.lastIndexOf("/"))}/${segment(old)}/*`;

const isAsMade = (r: ApiSiteRedirect, source: string, url: string) =>
  r.source === source && !r.draft && r.captureWildcard && r.destination.kind === "external" && (r.destination as { url?: unknown }).url === url;

/** What a read or an update needs to know about the site's rules: its URL and its live rules. */
interface SiteRules {
  siteUrl: string;
  rules: ApiSiteRedirect[];
}

async function siteRules(ctx: Ctx, org: string, site: string, fresh: boolean): Promise<SiteRules | undefined> {
  const siteUrl = await publishedUrl(ctx, org, site);
  if (siteUrl === undefined) return undefined;
  const rules = fresh
    ? await ctx.client.listNow(paths.redirects(org, site), ApiSiteRedirect, { draft: false })
    : await ctx.client.listAll(paths.redirects(org, site), ApiSiteRedirect, { draft: false });
  return { siteUrl, rules };
}

/** What the owner tells these helpers about itself. */
export interface Owner {
  /** e.g. `site section sec_1`, for messages. */
  what: string;
  org: string;
  site: string;
  /** The resource's published URL, as GitBook reports it now. */
  url: string | undefined;
}

/**
 * The recorded entries as the site's rules show them, for a read: an entry whose owned rule is gone
 * or no longer as made gets a `status`. Costs the site's rule listing and the site (both shared
 * between the reads of one site); nothing when there is no entry.
 */
export async function readOldPaths(ctx: Ctx, owner: Owner, entries: OldPathEntry[] | undefined, owned: Owned | undefined): Promise<OldPathEntry[] | undefined> {
  if (!entries || entries.length === 0) return entries;
  let site: SiteRules | undefined;
  try {
    site = await siteRules(ctx, owner.org, owner.site, false);
  } catch (e) {
    if (e instanceof GitbookError && e.status === 404) site = undefined;
    else throw e;
  }
  // A site gone or no longer published: nothing to tell, the entries stand as recorded.
  if (!site) return entries;
  const current = relativePath(site.siteUrl, owner.url);
  return entries.map(({ path }) => {
    const mine = owned?.[path];
    if (mine?.unconfirmed) return { path, status: "not confirmed" };
    const rule = mine && site.rules.find((r) => r.id === mine.id);
    if (!mine || !rule) return { path, status: "deleted in GitBook" };
    return current !== undefined && isAsMade(rule, mine.source, owner.url!.replace(/\/+$/, "")) ? { path } : { path, status: "changed in GitBook" };
  });
}

/** A step of redirectOldPaths failed: the IDs the resource owns after the steps that went through, and why. */
export class OldPathRedirectsFailed extends Error {
  constructor(
    message: string,
    readonly owned: Owned,
    readonly entries: OldPathEntry[],
  ) {
    super(message);
  }
}

/**
 * Makes the site's rules what `wanted` asks, from the rules recorded as owned (`recorded`): deletes the
 * owned rules of paths no longer wanted, rewrites owned rules that no longer lead to the current URL
 * (or were changed in the app), creates the missing ones. Refuses, before creating, a rule for a
 * source someone else holds, and a rule that would chain into or loop with the site's other rules.
 * Answers the owned IDs; on failure throws OldPathRedirectsFailed with those that went through.
 * No request when nothing is wanted or owned.
 */
export async function redirectOldPaths(ctx: Ctx, owner: Owner, wanted: readonly OldPathEntry[] | undefined, recorded: Owned | undefined): Promise<Owned | undefined> {
  const want = (wanted ?? []).map((e) => e.path);
  const owned: Owned = { ...recorded };
  if (want.length === 0 && Object.keys(owned).length === 0) return undefined;
  const { org, site: siteId } = owner;
  const state = () => ({ ...owned });
  // What the site has when a step fails: a wanted path without its rule is marked, so the next up makes it.
  const failed = (why: string) =>
    new OldPathRedirectsFailed(why, state(), [
      ...want.map((path) => (owned[path] === undefined ? { path, status: "not created" } : owned[path].unconfirmed ? { path, status: "not confirmed" } : { path })),
      // An owned rule still there though no longer wanted stays an entry, so that the next up deletes it.
      ...Object.keys(owned).filter((path) => !want.includes(path)).map((path) => ({ path, status: "not deleted" })),
    ]);
  const fail = (why: string): never => {
    throw failed(why);
  };
  try {
    await settleUnconfirmed(ctx, org, siteId, owned, fail);
    // Paths no longer wanted (a move back, the option turned off): their rules go first, so a move back leaves no loop.
    for (const [path, { id }] of Object.entries(owned)) {
      if (want.includes(path)) continue;
      await ctx.client.delete(paths.redirect(org, siteId, id));
      delete owned[path];
    }
    if (want.length === 0) return undefined;
    const site = await siteRules(ctx, org, siteId, true);
    if (!site) return fail(`site ${siteId} has no published URL, so its old paths have no published links to redirect and a rule could not name the new one: publish the site first (a SitePublication the resource \`dependsOn\`), or remove redirectOldPath.`);
    const current = relativePath(site.siteUrl, owner.url);
    if (current === undefined) return fail(`${owner.what} reports no published URL under the site's (${site.siteUrl}), so there is no path to redirect to.`);
    const url = `${site.siteUrl}${current}`;
    // The site's rules as the chain and loop checks see them, with ours as they are to be.
    const mine = new Set(Object.values(owned).map((o) => o.id));
    const others: (Placed & { id: string })[] = site.rules
      .filter((r) => !mine.has(r.id))
      .map((r) => ({ rule: { source: r.source, destination: liveDestination(r.destination, site.siteUrl), draft: false }, at: `rule ${r.id} (${r.source})`, id: r.id }));
    // A rule made keeps its source; a new one redirects the old path where the resource's parent is now.
    const sources = want.map((p) => owned[p]?.source ?? sourceFor(current, p));
    const ours: Placed[] = sources.map((source) => ({ rule: { source, destination: { path: current }, draft: false }, at: `the redirect from ${source}` }));
    for (const o of ours) {
      const held = others.find((r) => r.rule.source === o.rule.source);
      if (held) {
        fail(
          `the site already has ${held.at}, which this resource has no record of making, so the redirect from the old path was not added. ` +
            "An `up` of this resource interrupted after that rule's create leaves it so, as does a rule made in the app or by another program, and the provider cannot tell which: " +
            `if it is this resource's, run \`npx pulumi-gitbook recover --stack <stack> --adopt <this resource's URN>=${held.id}\` (recover lists it); otherwise delete it in the GitBook app (or remove the SiteRedirect declaring it) and run up again, or remove redirectOldPath.`,
        );
      }
    }
    // Ours must lead nowhere redirected, and close no loop. A rule of someone else's leading to an old
    // path now goes through ours: better than a dead link, so that one is no reason to refuse.
    const problem = ruleProblems([...others, ...ours]).find((p) => ours.includes(p.on) || (p.message.startsWith("forms a loop") && ours.some((o) => p.message.includes(o.at))));
    if (problem) fail(`${problem.on.at} ${problem.message}. The redirect was not added: change or delete the other rule in the GitBook app, or remove redirectOldPath.`);
    for (const o of ours) {
      const path = want[ours.indexOf(o)]!;
      const source = o.rule.source;
      const body = { source, destination: { kind: "external", url }, captureWildcard: true, permanent: true };
      const have = site.rules.find((r) => r.id === owned[path]?.id);
      if (have && isAsMade(have, source, url)) continue;
      if (have) {
        await ctx.client.patch(paths.redirect(org, siteId, have.id), { body, schema: ApiSiteRedirect });
        continue;
      }
      // One rule per source: after a lost answer, the rule from this source that was not there before is the POST's.
      let made: ApiSiteRedirect;
      try {
        made = await createOnce(ctx, {
          kind: "OldPathRedirect",
          key: `${org}/${siteId}/${source}`,
          what: `redirect from ${source} in site ${siteId}`,
          candidates: async () => (await ctx.client.listNow(paths.redirects(org, siteId), ApiSiteRedirect, { draft: false, search: source })).filter((r) => r.source === source),
          before: site.rules.filter((r) => r.source === source),
          send: () => ctx.client.post(paths.redirects(org, siteId), { body, schema: ApiSiteRedirect }),
        });
      } catch (e) {
        if (!(e instanceof UnconfirmedCreateError)) throw e;
        owned[path] = { id: "", source, unconfirmed: { sentAt: e.sentAt, before: e.before } };
        return fail(`${e.message} The next up looks for it first, and sends nothing for it until it knows.`);
      }
      owned[path] = { id: made.id, source };
    }
  } catch (e) {
    if (e instanceof OldPathRedirectsFailed) throw e;
    throw failed((e as Error).message);
  }
  return state();
}

/**
 * Deletes the rules the resource owns (after the resource itself: they redirect to a path no longer
 * there). A rule whose create was unconfirmed is left: nothing proves which rule (if any) is its own.
 */
export async function deleteOldPaths(ctx: Ctx, org: string, site: string, owned: Owned | undefined): Promise<void> {
  for (const { id, unconfirmed } of Object.values(owned ?? {})) if (!unconfirmed) await ctx.client.delete(paths.redirect(org, site, id));
}

/** Whether a rule has the shape this module's POST gives its rules (whatever its source and URL). */
const shapedAsOurs = (r: ApiSiteRedirect) => !r.draft && r.captureWildcard && r.permanent && r.destination.kind === "external";

/** The rules that could be the one an unrecorded create for `path` made: shaped as ours, from that old path, not `held`. */
function couldBe(rules: readonly ApiSiteRedirect[], path: string, rule: OwnedRule | undefined, held: ReadonlySet<string>): ApiSiteRedirect[] {
  const source = (r: ApiSiteRedirect) => (rule?.source ? r.source === rule.source : r.source.endsWith(`/${segment(path)}/*`));
  return rules.filter((r) => shapedAsOurs(r) && source(r) && !held.has(r.id) && !rule?.unconfirmed?.before?.includes(r.id));
}

/**
 * Resolves, in `owned`, each rule whose create was unconfirmed, from the site's rules listed now. When
 * the site holds no rule that could be it (of its source, shaped as its POST makes them, absent from
 * the listing before it, owned by no other entry), it made none: the entry goes, and the update makes
 * it again. Otherwise which one (if any) it made is not provable (a rule made in the app or by another
 * stack since looks the same, whatever its date): it `fail`s naming them, sending nothing, for the
 * user to decide with recover. One listing, and only when there is such an entry.
 */
async function settleUnconfirmed(ctx: Ctx, org: string, site: string, owned: Owned, fail: (why: string) => never): Promise<void> {
  const open = Object.entries(owned).filter(([, o]) => o.unconfirmed);
  if (open.length === 0) return;
  const rules = await ctx.client.listNow(paths.redirects(org, site), ApiSiteRedirect, { draft: false });
  for (const [path, o] of open) {
    const found = couldBe(rules, path, o, new Set(Object.values(owned).map((x) => x.id)));
    if (found.length === 0) {
      delete owned[path];
      continue;
    }
    fail(
      `the redirect from ${o.source} was sent ${o.unconfirmed!.sentAt} without an answer, and the site now has ${found.map((r) => `rule ${r.id}`).join(", ")} from that source, which it may have made or someone else may have: nothing proves which. ` +
        "Nothing was sent. Run `npx pulumi-gitbook recover --stack <stack>`: it lists them with the command to take the one this resource made, or to drop the record.",
    );
  }
}

/**
 * For recover (ResourceSpec.openWrites.find): each old path the resource wants a rule for but has none
 * recorded (an update killed after the rule's create, or whose create was unconfirmed), with the site's
 * rules that could be it. `wanted`: the entries of a pending update's inputs, else the recorded ones.
 */
async function findOpen(ctx: Ctx, recorded: Props, wanted: Props | undefined, held: ReadonlySet<string>): Promise<OpenWrite[]> {
  const owned = ownedIn(recorded) ?? {};
  const entries = ((wanted ?? recorded).oldPathRedirects as OldPathEntry[] | undefined) ?? [];
  const open = entries.map((e) => e.path).filter((p) => owned[p] === undefined || owned[p]!.unconfirmed);
  const { organizationId: org, siteId: site } = recorded;
  if (open.length === 0 || typeof org !== "string" || typeof site !== "string") return [];
  const rules = await ctx.client.listNow(paths.redirects(org, site), ApiSiteRedirect, { draft: false });
  return open.map((path) => {
    const rule = owned[path];
    return {
      what: `the redirect rule from its old path ${JSON.stringify(path)} in site ${site}${rule?.unconfirmed ? `, sent ${rule.unconfirmed.sentAt} without an answer` : ""}`,
      candidates: couldBe(rules, path, rule, held).map((r) => ({ id: r.id, name: `${r.source} -> ${(r.destination as { url?: string }).url ?? "?"}`, ...(r.createdAt ? { createdAt: r.createdAt } : {}) })),
      adopt: (outs, id) => {
        const source = rules.find((r) => r.id === id)!.source;
        return { ...outs, [OWNED_KEY]: { ...ownedIn(outs), [path]: { id, source } } };
      },
      // Dropped, a record of an unconfirmed create goes (the next update makes the rule); there is none after a killed update.
      drop: (outs) => {
        const { [path]: _gone, ...rest } = ownedIn(outs) ?? {};
        return _gone === undefined ? outs : { ...outs, [OWNED_KEY]: rest };
      },
    };
  });
}

/** What SiteSection and SiteSpace give recover (ResourceSpec.openWrites). */
export const openWrites = {
  find: findOpen,
  unconfirmed: (recorded: Props) => Object.values(ownedIn(recorded) ?? {}).some((o) => o.unconfirmed),
};

// ---- In the kinds ------------------------------------------------------------------------------------

/** The API object as a kind's `live` and `computed` see it, with what the resource knows of its old-path rules. */
export type WithOldPaths<T> = T & { oldPaths?: { entries?: OldPathEntry[]; owned?: Owned } };

/** For a kind's `live`: the entries as read (undefined unless a read looked). */
export const liveOldPaths = (obj: WithOldPaths<object>): Props => (obj.oldPaths?.entries ? { oldPathRedirects: obj.oldPaths.entries } : {});

/** For a kind's `computed`: the rules the resource owns. */
export const ownedOldPaths = (obj: WithOldPaths<object>): object =>
  obj.oldPaths?.owned && Object.keys(obj.oldPaths.owned).length > 0 ? { [OWNED_KEY]: obj.oldPaths.owned } : {};

/** For a kind's read: the object with its recorded rules checked against the site's (no request without entries). */
export async function readOwned<T>(ctx: Ctx, owner: Owner, props: Props, obj: T): Promise<WithOldPaths<T>> {
  const owned = ownedIn(props);
  return { ...obj, oldPaths: { entries: await readOldPaths(ctx, owner, props.oldPathRedirects as OldPathEntry[] | undefined, owned), ...(owned && { owned }) } };
}

/**
 * The update of a section or a site space, the owners of old paths: the PATCH of what changed (none
 * when nothing PATCHable did), else the object as `find` reads it; then the old-path rules, converged
 * when the path, the option or the entries changed (else the recorded ones carried over), whose failure
 * is a partial one: the object's changes are recorded, with the rules as they are; last, when
 * `default` turned true, `makeDefault`, a write on the container (the site, the section), whose
 * failure after those writes is a partial one too: they are recorded, with `default` as it was. The
 * next up makes the rest.
 */
export async function updatePathOwner<T>(
  ctx: Ctx,
  def: { kind: string; noun: string; patch: PatchRules },
  id: string,
  olds: Props,
  news: Props,
  changed: readonly string[],
  io: {
    patch(body: Props): Promise<T>;
    find(): Promise<T | undefined>;
    /** Where the object was looked for, for the error when it is gone (" in site s1"). */
    where: string;
    /** Makes the object its container's default: a write on the container. */
    makeDefault(obj: T): Promise<void>;
    /** The container's default, for the partial failure's message ("the site's default"). */
    defaultOf: string;
    owner(obj: T): Owner & { id: string };
    outputs(inputs: Props, obj: WithOldPaths<T>): Props;
  },
): Promise<Props> {
  const body = changedBody(def, changed, news);
  const patched = Object.keys(body).length > 0 ? await io.patch(body) : undefined;
  const obj = patched ?? (await io.find());
  if (obj === undefined) throw goneFromState(def, id, io.where);
  const recorded = ownedIn(olds);
  const owner = io.owner(obj);
  let moved: WithOldPaths<T> = { ...obj, oldPaths: { ...(recorded && { owned: recorded }) } };
  let redirected = false;
  // `address`: the site's or the section's path moved under it, so the rules lead to where it was (siteAddress.ts).
  if (["path", "redirectOldPath", "oldPathRedirects", "address"].some((f) => changed.includes(f))) {
    try {
      const owned = await redirectOldPaths(ctx, owner, news.oldPathRedirects as OldPathEntry[] | undefined, recorded);
      moved = { ...obj, oldPaths: { ...(owned && { owned }) } };
      redirected = true;
    } catch (e) {
      if (!(e instanceof OldPathRedirectsFailed)) throw e;
      const outs = io.outputs({ ...declared(news), ...(e.entries.length > 0 ? { oldPathRedirects: e.entries } : {}) }, { ...obj, oldPaths: { owned: e.owned } });
      throw new PartialFailure(id, outs, [`${owner.what} was updated but its old-path redirects could not be made: ${e.message}`], { cause: e, field: "redirectOldPath" });
    }
  }
  // Last: what went before is recorded when the container refuses (a move's redirect with it, which
  // the next up would otherwise never make: its path already recorded as the new one).
  if (changed.includes("default") && news.default === true) {
    try {
      await io.makeDefault(obj);
    } catch (e) {
      if (!patched && !redirected) throw e;
      throw new PartialFailure(id, io.outputs({ ...declared(news), default: olds.default }, moved), [`${def.noun} ${id} was updated but could not be made ${io.defaultOf}: ${(e as Error).message}`], {
        cause: e,
        field: "default",
      });
    }
  }
  return io.outputs(declared(news), moved);
}
