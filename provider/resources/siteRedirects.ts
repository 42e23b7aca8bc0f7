/**
 * SiteRedirects: every redirect rule of a site, as one authoritative list (the way a Team's
 * `members` are): after `up`, the site has exactly the rules the program lists, live and draft, and
 * no other. A rule added in the app is deleted by the next `up` that sees it (after a refresh).
 *
 * Writes go through GitBook's bulk PUT, which upserts and deletes rules by source and draft state, up
 * to 500 per request, each on its own: only the rules that differ from the site's are sent, so an
 * `up` that changes one rule sends one item. The list is applied whole or not at all: the sections
 * and site spaces the rules to send name are found in the site before the PUT (one read of its
 * structure), and one it lacks fails the `up` naming the rule, with nothing written. Items GitBook
 * refuses all the same (a page it does not have, a section deleted meanwhile) leave the rest applied,
 * as does a PUT that failed after changing rules: the resource is kept in state with the rules the
 * site really has, and the next `up` converges.
 *
 * Creating it on a site that already has any rule fails, naming them, before anything is written,
 * even when they are exactly the listed ones: the provider cannot prove it made them (another
 * stack's SiteRedirects, or the app's), and two resources never share a site's rules. Taking a site's
 * rules over is asked for with `adoptId` (the site's ID). A create whose PUT went through but whose
 * run then failed is kept in state (a partial failure), so its retry is an update; a run killed
 * before the state write is resolved by `pulumi-gitbook recover` (see `pending`).
 */
import { z } from "zod";
import { GitbookError } from "../client";
import { defineResource, resourceClass, type Inputs, type Outputs, type PendingEntries } from "../framework/define";
import { field, id, organizationIdField } from "../framework/fields";
import { PartialFailure } from "../framework/failure";
import { adoptIdIsParent, refreshed } from "../framework/recipes";
import type { Ctx } from "../framework/resource";
import { declared, wrote } from "../framework/state";
import { addressField, addressOf } from "./siteAddress";
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
import { missingItems } from "./siteStructure";

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
      "Every redirect rule of the site, in any order: authoritative. After `up` the site has exactly these rules: rules not listed, including rules added in the GitBook app, are deleted (a refresh shows them in the plan as removals); listed rules are created or updated. An empty list deletes every rule of the site. Refused at preview, naming the entry: a malformed source or destination, two rules for one source (per draft state), a chain (a rule whose destination path is another rule's source) and a loop (a → b → a); a destination URL is never taken for a path of the site. Applied whole or not at all: a destination section or site space the site does not have fails the `up` naming the rule, before anything is written; a rule GitBook refuses all the same leaves the others applied, and state records the rules the site then has.",
    )
    // The bulk PUT of the rules that differ from the site's, computed from the live rules.
    .register(field, { change: "custom", authoritative: true }),
  address: addressField(),
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
 * Refuses, before the PUT, rules sent to a section or site space the site does not have: GitBook
 * refuses those items alone and applies the others, so the list would be half applied. A page's ID
 * is not looked up (it is in the site space's content, a read per page): GitBook refusing it is a
 * partial failure, as below.
 */
async function refuseUnknownTargets(ctx: Ctx, org: string, site: string, sent: readonly { rule: Rule; i: number }[]): Promise<void> {
  const refs = sent.flatMap(({ rule: { destination: d }, i }) => [
    ...(d.siteSectionId !== undefined ? [{ id: d.siteSectionId, type: "site-section" as const, at: `rules[${i}].destination.siteSectionId` }] : []),
    ...(d.siteSpaceId !== undefined ? [{ id: d.siteSpaceId, type: "site-space" as const, at: `rules[${i}].destination.siteSpaceId` }] : []),
  ]);
  if (refs.length === 0) return;
  // A site gone is the PUT's to report.
  const missing = (await missingItems(ctx, org, site, refs))?.missing ?? [];
  if (missing.length === 0) return;
  throw new Error(
    `SiteRedirects: ${missing.map((m) => `${m.at} ${JSON.stringify(m.id)}`).join(", ")}: site ${site} has no such ${missing.length === 1 ? "section or site space" : "sections or site spaces"}, so the rules cannot be applied whole. ` +
      "Pass the `id` output of a SiteSection or SiteSpace of this site, or remove the rule. Nothing was changed.",
  );
}

/**
 * Makes the site's rules the declared ones, from `current` (read just before): one bulk PUT of the
 * rules that differ, none when nothing does, after checking what they name (refuseUnknownTargets).
 * When GitBook refuses items all the same, the rest are applied: a partial failure records the rules
 * the site now has, naming each refused entry; so does a PUT that failed after changing rules (a
 * later chunk failing, an answer lost).
 */
async function converge(ctx: Ctx, given: SiteRedirectsInputs, current: ApiSiteRedirect[]): Promise<SiteRedirectsOutputs> {
  const { organizationId: org, siteId: site } = given;
  const wanted = given.rules.map(normal);
  const siteUrl = usesPath(wanted) ? await siteUrlFor(ctx, org, site, "SiteRedirects") : undefined;
  const asPaths = pathKeys(given.rules);
  const byKey = new Map(current.map((r) => [keyOf(r), liveRule(r, siteUrl, asPaths)]));
  const items: BulkItem[] = [];
  const sent: { rule: Rule; i: number }[] = [];
  wanted.forEach((w, i) => {
    const now = byKey.get(keyOf(w));
    if (now && sameRule(now, w)) return;
    items.push(upsert(w, siteUrl));
    sent.push({ rule: w, i });
  });
  await refuseUnknownTargets(ctx, org, site, sent);
  const wantedKeys = new Set(wanted.map(keyOf));
  for (const r of current) if (!wantedKeys.has(keyOf(r))) items.push(deletion(r));
  const recorded = (rules: ApiSiteRedirect[]) => definition.outputsOf({ ...declared(given), rules: liveRules(given.rules, rules, siteUrl) }, { id: site, rules, count: rules.length });
  let refused: Awaited<ReturnType<typeof sendBulk>>;
  try {
    refused = items.length > 0 ? await sendBulk(ctx, org, site, items) : [];
  } catch (e) {
    const now = await fetchRules(ctx, org, site).catch(() => undefined);
    const shown = (rules: ApiSiteRedirect[]) => JSON.stringify(liveRules(given.rules, rules, siteUrl));
    // Nothing changed, or nothing known: state keeps what it had.
    if (!now || shown(now) === shown(current)) throw e;
    throw new PartialFailure(site, recorded(now), [`site ${site}: the rules were changed part way before the request failed: ${(e as Error).message}`], { cause: e, field: "rules" });
  }
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
    throw new PartialFailure(site, recorded(now), [
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
  const wanted = given.rules.map(normal);
  // Any rule there was made by someone else, as far as the provider can prove: even one exactly as
  // listed may be another stack's, and two resources must never share a site's rules.
  if (current.length > 0) {
    const siteUrl = usesPath(wanted) ? await publishedUrl(ctx, org, site) : undefined;
    const there = liveRules(given.rules, current, siteUrl);
    const shown = there.slice(0, 10).map(describeRule).join("; ");
    throw new Error(
      `SiteRedirects: rules: site ${site} already has ${there.length} redirect rule${there.length === 1 ? "" : "s"} (${shown}${there.length > 10 ? "; …" : ""}), which this resource cannot prove it created (another stack's SiteRedirects or the GitBook app may hold them), so nothing was written. ` +
        `To take the site's rules over (deleting the unlisted ones and updating the listed ones), set adoptId: "${site}"; or delete them in the GitBook app. ` +
        "If a `pulumi up` of this stack was killed while creating this resource, run `pulumi-gitbook recover` instead.",
    );
  }
  return { id: site, outs: await converge(ctx, given, current) };
}

/** The site's rules, for `pulumi-gitbook recover`: GitBook dates each, which proves a killed create made them. */
async function pending(ctx: Ctx, given: SiteRedirectsInputs): Promise<PendingEntries | undefined> {
  const { organizationId: org, siteId: site } = given;
  const current = await fetchRules(ctx, org, site);
  if (!current) return undefined;
  const wanted = given.rules.map(normal);
  const siteUrl = usesPath(wanted) && current.length > 0 ? await publishedUrl(ctx, org, site) : undefined;
  const there = liveRules(given.rules, current, siteUrl);
  const exact = there.length === wanted.length && wanted.every((w) => there.some((r) => sameRule(r, w)));
  return { id: site, what: `redirect rules of site ${site}`, entries: current.map((r) => ({ id: `${r.draft ? "draft " : ""}${r.source}`, createdAt: r.createdAt })), exact };
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
  // The rules it wrote: a rule a refresh found beside them (the app's) stays.
  const listed = new Set((props.rules ?? []).map((r) => keyOf(normal(r))).filter((k) => wrote(props, k)));
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
  // Its ID is derived from what it declares, and every field a plan replaces it for names another
  // object: the new one is made first, so that a create refusing what it finds there (entries nobody can
  // prove this resource made) leaves the old object's as they were; deleting first lost them. A forced
  // replacement (same object) collides with itself and is refused, changing nothing.
  deleteBeforeReplace: ["organizationId", "siteId"],
  adoptable:
    "ID of the site whose existing redirect rules this resource takes over (dynamic providers cannot use `pulumi import`): the site `siteId` names, and no other (another site is refused at preview, naming both). Without it, creating the resource on a site that has any rule fails, naming them, and writes nothing, even when they are exactly the listed ones; with it, the first `up` deletes the site's unlisted rules and updates the listed ones (no write when they are exactly as listed). Used only when the resource is not yet in state.",
  noun: "redirect set",
  summary:
    "Every redirect rule of a site, as one authoritative list: the site keeps exactly the rules listed and the rest are deleted, including rules added in the GitBook app (a refresh shows them in the plan). Written with GitBook's bulk PUT, only the rules that differ. A site's rules are declared either by one SiteRedirects or by SiteRedirect resources, not both (refused at preview). Deleting the resource deletes the rules it wrote, the listed ones, and no other: a rule added in the app stays, also once a refresh has shown it. " +
    "Created on a site that already has any rule, it refuses, naming them, with nothing written, even when they are exactly as listed: the provider cannot prove it made them (another stack's SiteRedirects may hold them), and two resources never share a site's rules; `adoptId` takes them over. A create that failed after its write is kept in state, so the next `up` updates it; after a run killed mid-create, `pulumi-gitbook recover` adopts the rules when they were all created since the run began and are exactly the listed ones, and otherwise names them for `--adopt` or `--drop`.",
  inputs,
  outputs,
  // Inputs keep the program's order (errors name entries by index); order means nothing to a site's rules.
  view: (props) => ({ ...props, rules: Array.isArray(props.rules) ? (props.rules as RuleInput[]).map(normal).sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : 1)) : props.rules }),
  // The site too: an adoptId naming another site than siteId (not known at preview) then differs, and adopting refuses.
  live: (v: RulesView, props) => ({ siteId: v.id, rules: liveRules(Array.isArray(props.rules) ? (props.rules as RuleInput[]) : [], v.rules, v.siteUrl) }),
  // The rules are addressed by their site: an adoptId naming another site would take rules the program does not declare.
  prepare: adoptIdIsParent("siteId", "site", "a site's rules have no ID of their own"),
  computed: (v: RulesView) => ({ ruleCount: v.count }),
  create,
  read,
  update,
  delete: remove,
  listed: (props) => (Array.isArray(props.rules) ? (props.rules as RuleInput[]).map((r) => keyOf(normal(r))) : []),
  pending,
  inProgram: redirectDeclares("SiteRedirects"),
  // Path destinations are sent built on the site's address: its update puts back the rules that then differ.
  fromProgram: addressOf(),
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
