/**
 * SiteVisitorAuth: a site's visitor authentication (GitBook's "publishing auth"): which backend
 * authenticates visitors, where they are sent when that fails or when they log out, and the private
 * key their JWTs are signed with.
 *
 * Every site has these settings, so there is nothing to create: creating the resource reads them and
 * sends one PATCH only when a declared setting differs; settings the program leaves out are never
 * sent (the PATCH must carry `backend`, so an undeclared backend is sent as it is). Its ID is the
 * site's. The private key is a Pulumi secret output, never an input, never in a message. `regenerate`
 * is a trigger: when its value changes (added or changed, not removed), the key is regenerated, once.
 * Deleting the resource sends nothing: GitBook has no way to remove the settings, and the site keeps
 * them (the site's `visibility` decides whether visitors must authenticate). A site has one: a
 * second SiteVisitorAuth of the same site is refused (framework/singleton.ts).
 */
import { z } from "zod";
import { AmbiguousRequestError, p, redactSecrets } from "../client";
import { defineResource, resourceClass, type Inputs, type Outputs } from "../framework/define";
import { field, id, organizationIdField, triggerField, triggerFired, uri, wireShape } from "../framework/fields";
import { getOrUndefined } from "../framework/lists";
import { changedBody, refreshed } from "../framework/recipes";
import type { Ctx, Props } from "../framework/resource";
import { claimOnly, onePerTarget } from "../framework/singleton";
import { declared } from "../framework/state";
import { defined } from "../framework/discover";

/** The settings of a site's visitor authentication, as the importer reads them (its private key is not read). */
const ApiVisitorAuthSettings = z.looseObject({ backend: z.string(), fallbackURL: z.string().optional(), logoutURL: z.string().optional() });

// ---- Schema --------------------------------------------------------------------------------------

const BACKENDS = ["custom", "integration"] as const;

const inputs = z.object({
  organizationId: organizationIdField,
  siteId: id().describe("ID of the site: the Site's `id` output. Changing it manages the other site's settings instead (the first site keeps its settings as they are).").register(field, { change: "replace" }),
  backend: z
    .enum(BACKENDS, { error: `must be one of ${BACKENDS.join(", ")}` })
    .optional()
    .describe(
      "Who authenticates visitors: `custom` (your backend signs a JWT with the site's `privateKey`) or `integration` (the visitor-authentication integration installed on the site, see the `integration` output). Managed only while declared: removing it leaves the current backend.",
    )
    .register(field, { live: true }),
  fallbackURL: uri()
    .optional()
    .describe("Where visitors are sent when their authentication is missing or invalid: an absolute URI (GitBook gives no length limit). Removing it unsets it.")
    .register(field, { remove: "clear" }),
  logoutURL: uri()
    .optional()
    .describe("Where visitors are sent to log out of your authentication backend: an absolute URI (GitBook gives no length limit). Removing it unsets it.")
    .register(field, { remove: "clear" }),
  regenerate: triggerField(
    "A trigger for a new private key: any text, e.g. a date. When its value changes, or it is added to an existing resource, `up` regenerates the key (GitBook's regenerate call; JWTs signed with the old key stop working) and `privateKey` shows the new one. Setting it on a new resource, removing it, or leaving it unchanged regenerates nothing. Never sent as a setting nor read from GitBook.",
  ),
});

const outputs = z.object({
  privateKey: z.string().describe("The private key visitors' JWTs are signed with (custom backend). A secret: encrypted in state, masked in previews.").register(field, { secret: true }),
  integration: z.string().optional().describe("Name of the visitor-authentication integration installed on the site, when there is one."),
});

export type SiteVisitorAuthInputs = Inputs<typeof inputs>;
export type SiteVisitorAuthOutputs = Outputs<typeof inputs, typeof outputs>;

// ---- CRUD ----------------------------------------------------------------------------------------

const ApiPublishingAuth = z.looseObject({
  object: z.literal("publishing-auth"),
  ...wireShape(inputs),
  backend: z.enum(BACKENDS),
  privateKey: z.string(),
  integration: z.string().optional(),
});
type ApiPublishingAuth = z.infer<typeof ApiPublishingAuth>;

const authPath = (org: string, site: string) => p`/orgs/${org}/sites/${site}/publishing/auth`;
const regeneratePath = (org: string, site: string) => p`/orgs/${org}/sites/${site}/publishing/auth/regenerate`;

/** The declared settings `from` does not have yet, as the PATCH body (with the backend it must carry); undefined when none. */
function patchFor(fields: readonly string[], given: SiteVisitorAuthInputs, from: ApiPublishingAuth): Props | undefined {
  const body = changedBody(definition, fields, given);
  if (Object.keys(body).length === 0) return undefined;
  return { backend: from.backend, ...body };
}

/**
 * The keys one step has seen, state's and each answer's, taken out of the text of any error the step
 * ends with: GitBook's messages are shown as they are, and one might quote the key. (A key the step
 * never saw cannot be told apart from other text: a failing first read shows GitBook's words whole.)
 */
class Keys {
  private readonly seen = new Set<string>();
  constructor(recorded?: unknown) {
    if (typeof recorded === "string") this.seen.add(recorded);
  }
  /** Notes the key of an answer. */
  of<A extends ApiPublishingAuth | undefined>(auth: A): A {
    if (auth) this.seen.add(auth.privateKey);
    return auth;
  }
  async guard<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (e) {
      throw redactSecrets(e, [...this.seen]);
    }
  }
}

async function get(ctx: Ctx, org: string, site: string, keys: Keys): Promise<ApiPublishingAuth> {
  const auth = keys.of(await getOrUndefined(ctx.client.get(authPath(org, site), { schema: ApiPublishingAuth })));
  if (!auth) throw new Error(`SiteVisitorAuth: siteId: no site ${site} in organization ${org}; it was deleted, or the ID is wrong (pass the Site's id output).`);
  return auth;
}

const patch = async (ctx: Ctx, org: string, site: string, body: Props, keys: Keys) => keys.of(await ctx.client.patch(authPath(org, site), { body, schema: ApiPublishingAuth }));

async function create(ctx: Ctx, given: SiteVisitorAuthInputs): Promise<{ id: string; outs: SiteVisitorAuthOutputs }> {
  const { organizationId: org, siteId: site } = given;
  claimOnly(ctx, "SiteVisitorAuth", site, "site");
  const keys = new Keys();
  return keys.guard(async () => {
    let auth = await get(ctx, org, site, keys);
    const live = definition.live(auth, given);
    const differing = (["backend", "fallbackURL", "logoutURL"] as const).filter((f) => given[f] !== undefined && given[f] !== live[f]);
    const body = patchFor(differing, given, auth);
    if (body) auth = await patch(ctx, org, site, body, keys);
    return { id: site, outs: definition.outputsOf(declared(given), auth) };
  });
}

async function read(ctx: Ctx, _id: string, props: SiteVisitorAuthOutputs): Promise<SiteVisitorAuthOutputs | undefined> {
  const keys = new Keys(props.privateKey);
  const auth = await keys.guard(() => getOrUndefined(ctx.client.get(authPath(props.organizationId, props.siteId), { schema: ApiPublishingAuth })));
  return auth && refreshed(definition, props, auth);
}

async function update(ctx: Ctx, _id: string, olds: SiteVisitorAuthOutputs, news: SiteVisitorAuthInputs, changed: readonly string[]): Promise<SiteVisitorAuthOutputs> {
  const { organizationId: org, siteId: site } = news;
  const keys = new Keys(olds.privateKey);
  return keys.guard(async () => {
    let auth: ApiPublishingAuth | undefined;
    const settings = changed.filter((f) => f !== "regenerate");
    if (settings.length > 0) {
      const now = await get(ctx, org, site, keys);
      const body = patchFor(settings, news, now);
      auth = body ? await patch(ctx, org, site, body, keys) : now;
    }
    // Only a new value asks for a new key; removing the trigger does not.
    if (changed.includes("regenerate") && triggerFired("regenerate", olds, news)) {
      auth = await regenerate(ctx, org, site, auth ?? (await get(ctx, org, site, keys)), keys);
    }
    auth ??= await get(ctx, org, site, keys);
    return definition.outputsOf(declared(news), auth);
  });
}

/**
 * The regenerate POST, whose effect must happen once: each regeneration breaks every JWT signed with
 * the key before. The POST is not idempotent, so a lost answer (or a 5xx) leaves it unknown whether the
 * key was replaced; the key read just before (`before`) tells: another key now is the new one (sending
 * again would replace it a second time), the same key means the request did nothing, and it is sent
 * once more. The key state recorded cannot stand in for that read: the app may have regenerated it
 * since, and taking that key for the one asked for would leave a key the program meant to rotate.
 * A request our time limit gave up on may still take effect later: that error is left as it is.
 */
async function regenerate(ctx: Ctx, org: string, site: string, before: ApiPublishingAuth, keys: Keys): Promise<ApiPublishingAuth> {
  const send = async () => keys.of(await ctx.client.post(regeneratePath(org, site), { schema: ApiPublishingAuth }));
  try {
    return await send();
  } catch (e) {
    if (!(e instanceof AmbiguousRequestError) || e.settleMs > 0) throw e;
    const now = await get(ctx, org, site, keys);
    return now.privateKey !== before.privateKey ? now : send();
  }
}

// ---- Declaration ---------------------------------------------------------------------------------

export const definition = defineResource({
  kind: "SiteVisitorAuth",
  // Its ID is derived from what it declares: a replacement is the same object (define.ts).
  deleteBeforeReplace: true,
  import: {
    variableSuffix: "-visitor-auth",
    // Only the settings are kept, never the private key; nothing when nothing about them is set (custom backend, no URLs, a site not `visitor-auth`).
    read: {
      under: "Site",
      into: "visitorAuth",
      one: true,
      async find(ctx, site) {
        const auth = await ctx.get(p`/orgs/${ctx.organizationId}/sites/${site!.id as string}/publishing/auth`, ApiVisitorAuthSettings);
        if (auth.backend === "custom" && auth.fallbackURL === undefined && auth.logoutURL === undefined && site!.visibility !== "visitor-auth") return undefined;
        return { backend: auth.backend, ...defined({ fallbackURL: auth.fallbackURL, logoutURL: auth.logoutURL }) };
      },
    },
  },
  noun: "visitor authentication",
  summary:
    "A site's visitor authentication: its backend, fallback and logout URLs, and the private key visitors' JWTs are signed with (a secret output), regenerated when the `regenerate` trigger changes. Every site has these settings: creating the resource sends only the declared settings that differ, and deleting it leaves them as they are. A site has one: two SiteVisitorAuth resources of one site are refused at preview (the same site ID or `site.id` Output) or at create.",
  inputs,
  outputs,
  // `regenerate` is absent: GitBook has no such setting, so refresh keeps what state recorded.
  live: (a: ApiPublishingAuth) => ({ backend: a.backend, fallbackURL: a.fallbackURL, logoutURL: a.logoutURL }),
  computed: (a) => ({ privateKey: a.privateKey, ...(a.integration ? { integration: a.integration } : {}) }),
  create,
  read,
  update,
  // The settings are the site's: removing the resource leaves them as they are.
  delete: async () => {},
  inProgram: onePerTarget("SiteVisitorAuth", "siteId", "site"),
});

/** A GitBook site's visitor authentication settings. Its `privateKey` output is a secret. */
export const SiteVisitorAuth = resourceClass(definition);
export type SiteVisitorAuth = InstanceType<typeof SiteVisitorAuth>;
export type SiteVisitorAuthArgs = ConstructorParameters<typeof SiteVisitorAuth>[1];
