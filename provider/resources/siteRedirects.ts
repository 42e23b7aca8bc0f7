/**
 * SiteRedirects: every redirect rule of a site, as one authoritative list (the way a Team's
 * `members` are): after `up`, the site has exactly the rules the program lists, live and draft, and
 * no other. A rule added in the app is deleted by the next `up` that sees it (after a refresh).
 *
 * Writes go through GitBook's bulk PUT, which upserts and deletes rules by source and draft state, up
 * to 500 per request, each on its own: only the rules that differ from the site's are sent, so an
 * `up` that changes one rule sends one item. Items GitBook refuses leave the rest applied: the
 * resource is kept in state with the rules the site really has, and the next `up` converges.
 *
 * Creating it on a site that already has rules other than the listed ones (exactly as listed) fails,
 * naming them, before anything is written: taking a site's rules over, which deletes the unlisted
 * ones, is asked for with `adoptId` (the site's ID). Rules exactly as listed are taken as they are,
 * which is what lets an interrupted create's retry and an imported program converge, and also what
 * lets a second stack listing the same rules take them without a word (see the summary).
 */
import { z } from "zod";
import { GitbookError } from "../client";
import { defineResource, resourceClass, type Inputs, type Outputs } from "../framework/define";
import { field, id, organizationIdField } from "../framework/fields";
import { PartialFailure } from "../framework/failure";
import { refreshed } from "../framework/recipes";
import type { Ctx } from "../framework/resource";
import { declared } from "../framework/state";
import {
  ApiSiteRedirect,
  ApiSiteRedirectResults,
  paths,
  captureWildcardField,
  destinationField,
  liveDestination,
  permanentField,
  publishedUrl,
  redirectDeclares,
  ruleProblems,
  siteUrlFor,
  sourceField,
  usesPath,
  wireDestination,
  type Rule,
} from "./redirectRules";

// ---- Schema --------------------------------------------------------------------------------------

const ruleSchema = z.object({
  source: sourceField(),
  destination: destinationField(),
  draft: z
    .boolean({ error: "must be a boolean" })
    .optional()
    .describe("Whether the rule is a draft, not yet applied to visitors. A source may have one live and one draft rule. Absent: live."),
  permanent: permanentField().describe("Whether the redirect is permanent: served as HTTP 308 to the public (307 otherwise). Absent: temporary."),
  captureWildcard: captureWildcardField().describe("For a source ending in a wildcard: append what the wildcard matched to the destination URL. Absent: off."),
});

/** Most rules one bulk PUT takes (the spec's maxItems). */
const BULK_MAX = 500;

const inputs = z.object({
  organizationId: organizationIdField,
  siteId: id()
    .describe("ID of the site whose redirects this resource holds: pass the Site's `id` output. Changing it replaces the resource (the old site's listed rules are deleted).")
    .register(field, { change: "replace" }),
  rules: z
    .array(ruleSchema, { error: "must be a list of rules {source, destination, draft?, permanent?, captureWildcard?}" })
    .superRefine((rules, ctx) => {
      const placed = rules.map((rule, i) => ({ rule, at: `rules[${i}]` }));
      for (const p of ruleProblems(placed)) ctx.addIssue({ code: "custom", path: [placed.indexOf(p.on), p.field], message: p.message });
    })
    .describe(
      "Every redirect rule of the site, in any order: authoritative. After `up` the site has exactly these rules: rules not listed, including rules added in the GitBook app, are deleted (a refresh shows them in the plan as removals); listed rules are created or updated. An empty list deletes every rule of the site. Refused at preview, naming the entry: a malformed source or destination, two rules for one source (per draft state), a chain (a rule whose destination path is another rule's source) and a loop (a → b → a); a destination URL is never taken for a path of the site.",
    )
    // The bulk PUT of the rules that differ from the site's, computed from the live rules.
    .register(field, { change: "custom" }),
});

const outputs = z.object({
  ruleCount: z.number().describe("How many rules the site has (live and draft)."),
});

export type SiteRedirectsInputs = Inputs<typeof inputs>;
export type SiteRedirectsOutputs = Outputs<typeof inputs, typeof outputs>;
type RuleInput = z.output<typeof ruleSchema>;

// ---- Rules, declared and live ----------------------------------------------------------------------

const keyOf = (r: { source: string; draft?: boolean | undefined }) => `${r.draft ? "draft" : "live"} ${r.source}`;

/** A rule in the form compared and recorded: false flags left out, so `permanent: false` and absent agree (draft too). */
function normal(r: RuleInput | Rule): Rule {
  return {
    source: r.source,
    destination: r.destination,
    ...(r.draft ? { draft: true } : {}),
    ...(r.permanent ? { permanent: true } : {}),
    ...(r.captureWildcard ? { captureWildcard: true } : {}),
  };
}

/**
 * A live rule in the declared form. `pathRules`: the keys of the declared rules whose destination is a
 * path, read back as one under `siteUrl` (see redirectRules.ts); any other URL stays a URL.
 */
function liveRule(r: ApiSiteRedirect, siteUrl?: string, pathRules?: ReadonlySet<string>): Rule {
  const asPath = siteUrl !== undefined && pathRules?.has(keyOf(r)) ? siteUrl : undefined;
  return normal({ source: r.source, destination: liveDestination(r.destination, asPath), draft: r.draft, permanent: r.permanent, captureWildcard: r.captureWildcard });
}

const pathKeys = (rules: readonly RuleInput[]) => new Set(rules.filter((r) => r.destination.path !== undefined).map((r) => keyOf(normal(r))));

const sameRule = (a: Rule, b: Rule) => JSON.stringify(normal(a)) === JSON.stringify(normal(b));

/** The site's rules, live and draft, read now (undefined when the site is gone). */
async function fetchRules(ctx: Ctx, org: string, site: string, cached = false): Promise<ApiSiteRedirect[] | undefined> {
  const list = (draft: boolean) =>
    cached ? ctx.client.listAll(paths.redirects(org, site), ApiSiteRedirect, { draft }) : ctx.client.listNow(paths.redirects(org, site), ApiSiteRedirect, { draft });
  try {
    const [live, drafts] = await Promise.all([list(false), list(true)]);
    return [...live, ...drafts];
  } catch (e) {
    if (e instanceof GitbookError && e.status === 404) return undefined;
    throw e;
  }
}

/** What the API says about the site's rules: the site's ID, its rules when they were read, how many it has, and its URL when rules declare paths. */
type RulesView = { id: string; rules: ApiSiteRedirect[]; count: number; siteUrl?: string };

/** The live rules, those the program lists first in its order (errors name entries by index), then the others by source. */
function liveRules(declaredRules: readonly RuleInput[], live: readonly ApiSiteRedirect[], siteUrl?: string): Rule[] {
  const asPaths = pathKeys(declaredRules);
  const place = (r: Rule) => {
    const i = declaredRules.findIndex((d) => keyOf(normal(d)) === keyOf(r));
    return i < 0 ? declaredRules.length : i;
  };
  return live.map((r) => liveRule(r, siteUrl, asPaths)).sort((a, b) => place(a) - place(b) || (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0));
}

// ---- Writes ------------------------------------------------------------------------------------------

type BulkItem = Record<string, unknown>;

const upsert = (r: Rule, siteUrl: string | undefined): BulkItem => ({
  source: r.source,
  intent: r.draft ? "draft" : "live",
  destination: wireDestination(r.destination, siteUrl),
  permanent: r.permanent === true,
  captureWildcard: r.captureWildcard === true,
});

const deletion = (r: { source: string; draft: boolean }): BulkItem => ({ source: r.source, intent: r.draft ? "draft" : "live", destination: null });

/** Sends the items, BULK_MAX per request; answers the items GitBook refused, with its reason. */
async function sendBulk(ctx: Ctx, org: string, site: string, items: BulkItem[]): Promise<{ item: BulkItem; error: string }[]> {
  const refused: { item: BulkItem; error: string }[] = [];
  for (let i = 0; i < items.length; i += BULK_MAX) {
    const chunk = items.slice(i, i + BULK_MAX);
    // By source and intent: sending it again after a lost answer changes nothing more.
    const { results } = await ctx.client.put(paths.redirects(org, site), { body: { redirects: chunk }, schema: ApiSiteRedirectResults });
    results.forEach((r, j) => r.status === "error" && refused.push({ item: chunk[j]!, error: r.error ?? "refused" }));
  }
  return refused;
}

/**
 * Makes the site's rules the declared ones, from `current` (read just before): one bulk PUT of the
 * rules that differ, none when nothing does. When GitBook refuses items the rest are applied all the
 * same: a partial failure records the rules the site now has, naming each refused entry.
 */
async function converge(ctx: Ctx, given: SiteRedirectsInputs, current: ApiSiteRedirect[]): Promise<SiteRedirectsOutputs> {
  const { organizationId: org, siteId: site } = given;
  const wanted = given.rules.map(normal);
  const siteUrl = usesPath(wanted) ? await siteUrlFor(ctx, org, site, "SiteRedirects") : undefined;
  const asPaths = pathKeys(given.rules);
  const byKey = new Map(current.map((r) => [keyOf(r), liveRule(r, siteUrl, asPaths)]));
  const items: BulkItem[] = [];
  for (const w of wanted) {
    const now = byKey.get(keyOf(w));
    if (!now || !sameRule(now, w)) items.push(upsert(w, siteUrl));
  }
  const wantedKeys = new Set(wanted.map(keyOf));
  for (const r of current) if (!wantedKeys.has(keyOf(r))) items.push(deletion(r));
  let refused = items.length > 0 ? await sendBulk(ctx, org, site, items) : [];
  let now = current;
  if (refused.length > 0) {
    now = (await fetchRules(ctx, org, site).catch(() => undefined)) ?? current;
    // A refusal the site already agrees with is no failure: a deletion of a rule gone meanwhile, or
    // the items of a request resent after a lost answer, which the first attempt had applied.
    const nowByKey = new Map(now.map((r) => [keyOf(r), liveRule(r, siteUrl, asPaths)]));
    refused = refused.filter(({ item }) => {
      const key = keyOf({ source: item.source as string, draft: item.intent === "draft" });
      const w = wanted.find((x) => keyOf(x) === key);
      const live = nowByKey.get(key);
      return w ? !live || !sameRule(live, w) : live !== undefined;
    });
  }
  if (refused.length > 0) {
    const reasons = refused.map(({ item, error }) => {
      const i = wanted.findIndex((w) => keyOf(w) === keyOf({ source: item.source as string, draft: item.intent === "draft" }));
      const what = item.destination === null ? `deleting the ${item.intent} rule from ${String(item.source)}` : `rules[${i}] (${String(item.source)})`;
      return `${what}: ${error}`;
    });
    throw new PartialFailure(site, definition.outputsOf({ ...declared(given), rules: liveRules(given.rules, now, siteUrl) }, { id: site, rules: now, count: now.length }), [
      `site ${site}: GitBook refused ${refused.length} of the ${items.length} rule change${items.length === 1 ? "" : "s"} (the others were applied): ${reasons.join("; ")}`,
    ], { field: "rules" });
  }
  // The site now has exactly the declared rules: no read needed to say so.
  return definition.outputsOf(declared(given), { id: site, rules: [], count: wanted.length });
}

// ---- CRUD ----------------------------------------------------------------------------------------

const describeRule = (r: Rule) =>
  `${r.draft ? "draft " : ""}${r.source} → ${Object.values(r.destination).join("/")}`;

async function create(ctx: Ctx, given: SiteRedirectsInputs): Promise<{ id: string; outs: SiteRedirectsOutputs }> {
  const { organizationId: org, siteId: site } = given;
  const current = await fetchRules(ctx, org, site);
  if (!current) throw new Error(`SiteRedirects: siteId: no site ${site} in organization ${org}; pass the Site's \`id\` output.`);
  // Only rules exactly as listed may already be there (e.g. from an interrupted run of this resource).
  const wanted = given.rules.map(normal);
  const siteUrl = usesPath(wanted) ? await publishedUrl(ctx, org, site) : undefined;
  const foreign = liveRules(given.rules, current, siteUrl).filter((r) => !wanted.some((w) => sameRule(w, r)));
  if (foreign.length > 0) {
    const shown = foreign.slice(0, 10).map(describeRule).join("; ");
    throw new Error(
      `SiteRedirects: rules: site ${site} already has ${foreign.length} redirect rule${foreign.length === 1 ? "" : "s"} this program does not list as they are (${shown}${foreign.length > 10 ? "; …" : ""}). ` +
        `Creating this resource would delete or change them, so nothing was written. List them in rules as they are, or delete them in the GitBook app; ` +
        `or, to take the site's rules over (deleting the unlisted ones and updating the listed ones), set adoptId: "${site}".`,
    );
  }
  return { id: site, outs: await converge(ctx, given, current) };
}

async function read(ctx: Ctx, site: string, props: SiteRedirectsOutputs): Promise<SiteRedirectsOutputs | undefined> {
  const rules = await fetchRules(ctx, props.organizationId, site, true);
  if (!rules) return undefined;
  const siteUrl = Array.isArray(props.rules) && usesPath(props.rules) ? await publishedUrl(ctx, props.organizationId, site) : undefined;
  return refreshed(definition, props, { id: site, rules, count: rules.length, ...(siteUrl && { siteUrl }) });
}

async function update(ctx: Ctx, site: string, _olds: SiteRedirectsOutputs, news: SiteRedirectsInputs, _changed: readonly string[]): Promise<SiteRedirectsOutputs> {
  const current = await fetchRules(ctx, news.organizationId, site);
  if (!current) throw new Error(`SiteRedirects: site ${site} no longer exists; run \`pulumi refresh\` to drop it from state.`);
  return converge(ctx, news, current);
}

/** Deletes the rules the resource lists (recorded in state); rules added in the app since are left. */
async function remove(ctx: Ctx, site: string, props: SiteRedirectsOutputs): Promise<void> {
  const current = await fetchRules(ctx, props.organizationId, site);
  if (!current) return;
  const listed = new Set((props.rules ?? []).map((r) => keyOf(normal(r))));
  const items = current.filter((r) => listed.has(keyOf(r))).map(deletion);
  if (items.length === 0) return;
  const refused = await sendBulk(ctx, props.organizationId, site, items);
  // A rule deleted meanwhile is refused as missing: it is gone, which is what was asked.
  const still = refused.length > 0 ? ((await fetchRules(ctx, props.organizationId, site)) ?? []).filter((r) => listed.has(keyOf(r))) : [];
  if (still.length > 0) throw new Error(`SiteRedirects: site ${site}: GitBook refused to delete ${still.map((r) => `${r.draft ? "draft " : ""}${r.source}`).join(", ")}: ${refused.map((r) => r.error).join("; ")}`);
}

// ---- Declaration ---------------------------------------------------------------------------------

export const definition = defineResource({
  kind: "SiteRedirects",
  adoptable:
    "ID of the site whose existing redirect rules this resource takes over (dynamic providers cannot use `pulumi import`). Without it, creating the resource on a site that has rules other than the listed ones fails, naming them, and writes nothing; with it, the first `up` deletes the site's unlisted rules and updates the listed ones. Used only when the resource is not yet in state.",
  noun: "redirect set",
  summary:
    "Every redirect rule of a site, as one authoritative list: the site keeps exactly the rules listed and the rest are deleted, including rules added in the GitBook app (a refresh shows them in the plan). Written with GitBook's bulk PUT, only the rules that differ. A site's rules are declared either by one SiteRedirects or by SiteRedirect resources, not both (refused at preview). Deleting the resource deletes the rules it lists. " +
    "Created on a site whose rules are each listed exactly as they are, it takes them over without `adoptId` and without a write (so that a create interrupted after its write, or a program written by `pulumi-gitbook import`, converges): a SiteRedirects of another stack listing the same rules of the same site is taken over the same way, and nothing tells the two apart. Both stacks then hold the rules: a change made by one is undone by the other's next `up`, and deleting one deletes the rules the other still lists (restored by the other's next `up`). Declare a site's rules in one stack.",
  inputs,
  outputs,
  // Inputs keep the program's order (errors name entries by index); order means nothing to a site's rules.
  view: (props) => ({ ...props, rules: Array.isArray(props.rules) ? (props.rules as RuleInput[]).map(normal).sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : 1)) : props.rules }),
  live: (v: RulesView, props) => ({ rules: liveRules(Array.isArray(props.rules) ? (props.rules as RuleInput[]) : [], v.rules, v.siteUrl) }),
  computed: (v: RulesView) => ({ ruleCount: v.count }),
  create,
  read,
  update,
  delete: remove,
  inProgram: redirectDeclares("SiteRedirects"),
  // The site's rules, live and draft, as this kind lists them; nothing when it has none.
  import: {
    read: {
      under: "Site",
      into: "redirects",
      one: true,
      async find(ctx, site) {
        const path = paths.redirects(ctx.organizationId, site!.id as string);
        const [live, draft] = await Promise.all([ctx.list(path, ApiSiteRedirect, { draft: false }), ctx.list(path, ApiSiteRedirect, { draft: true })]);
        const rules = [...live, ...draft].map((r) => ({
          source: r.source,
          destination: liveDestination(r.destination),
          ...(r.draft ? { draft: true } : {}),
          ...(r.permanent ? { permanent: true } : {}),
          ...(r.captureWildcard ? { captureWildcard: true } : {}),
        }));
        return rules.length > 0 ? rules : undefined;
      },
    },
  },
});

/** Every redirect rule of a GitBook site, as one authoritative list. */
export const SiteRedirects = resourceClass(definition);
export type SiteRedirects = InstanceType<typeof SiteRedirects>;
export type SiteRedirectsArgs = ConstructorParameters<typeof SiteRedirects>[1];
