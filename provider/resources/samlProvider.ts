/**
 * SamlProvider: single sign-on for the organization through a SAML identity provider (IdP).
 *
 * The IdP side (`entityID`, `certificate`, `ssoURL`) comes from the IdP admin; the outputs `acsURL`,
 * `startURL` and `serviceEntityID` are what the IdP admin needs back, next to the
 * `status` GitBook reports for the provider.
 *
 * `defaultRole` distinguishes three cases: a role, `null` (new SSO users join as guests, which is
 * also what the API does when the provider is created without a role), and absent (not managed:
 * the role set in the GitBook app is left alone, and removing the field stops managing it).
 *
 * The API takes no null for the other fields. An entityID or certificate is cleared with an empty
 * string (which the API answers for a provider that has none); an ssoURL must stay a URI and a
 * defaultTeam a team, so removing either leaves the current value in place.
 */
import { z } from "zod";
import { Role, p, apiObject } from "../client";
import { defineResource, resourceClass, type Inputs, type Outputs, type Lookalikes } from "../framework/define";
import { field, httpUrl, id, organizationIdField, text, wireShape } from "../framework/fields";
import { changedBody, finishCreate, refreshed } from "../framework/recipes";
import { createOnce } from "../framework/createOnce";
import { getOrUndefined } from "../framework/lists";
import type { Ctx } from "../framework/resource";
import { declared } from "../framework/state";
import { count, defined } from "../framework/discover";

// ---- Schema --------------------------------------------------------------------------------------

const inputs = z.object({
  organizationId: organizationIdField,
  label: text({ min: 1, max: 30 }).describe("Name shown on the sign-in button, 1 to 30 characters."),
  entityID: text({ max: 1024 })
    .optional()
    .describe("The identity provider's entity ID (issuer), at most 1024 characters. Removing it clears it (the provider is then `pending`).")
    .register(field, { remove: { reset: "" } }),
  certificate: text({ max: 10000 })
    .optional()
    .describe("The identity provider's X.509 signing certificate (PEM or base64), at most 10000 characters. Removing it clears it (the provider is then `pending`).")
    .register(field, { remove: { reset: "" } }),
  ssoURL: httpUrl(2048)
    .optional()
    .describe(
      "The identity provider's single sign-on URL, an http(s) URL of at most 2048 characters. Removing it leaves the current URL in place: GitBook's API cannot clear it, only change it.",
    ),
  defaultTeam: id()
    .optional()
    .describe(
      "ID of the team (e.g. a `Team` resource's `id`) new SSO users join. Removing it leaves the current team in place: GitBook's API cannot clear it, only change it.",
    )
    .register(field, { import: { ref: "Team" } }),
  defaultRole: z
    .enum(Role.options, { error: `must be one of ${Role.options.join(", ")}, or null for guests` })
    .nullable()
    .optional()
    .describe(
      "Organization role given to new SSO users: one of admin, create, review, edit, comment, read, or `null` to make them guests. When omitted the role is not managed (a new provider starts with guests); removing it leaves the current role in place.",
    )
    .register(field, { nullIsValue: true }),
});

const outputs = z.object({
  status: z.string().describe("Status reported by GitBook, e.g. `pending` while the identity-provider side is incomplete."),
  acsURL: z.string().describe("Assertion consumer service URL to register in the identity provider."),
  startURL: z.string().describe("URL that starts a GitBook sign-in through this provider."),
  serviceEntityID: z.string().describe("GitBook's own entity ID (the audience) to register in the identity provider."),
  createdAt: z.string().describe("When the provider was created."),
});

export type SamlRole = NonNullable<SamlProviderInputs["defaultRole"]>;
export type SamlProviderInputs = Inputs<typeof inputs>;
export type SamlProviderOutputs = Outputs<typeof inputs, typeof outputs>;

// ---- Wire ----------------------------------------------------------------------------------------

// What GitBook answers for this kind: loose objects (fields the API adds pass through), while a missing
// or mistyped field the kind uses fails with its name (ContractError).

export const ApiSamlProvider = apiObject("saml-provider", {
  ...wireShape(inputs),
  label: z.string(),
  defaultTeam: z.looseObject({ id: z.string() }).optional().nullable(),
  defaultRole: Role.optional().nullable(),
  createdAt: z.string().optional(),
  status: z.string().optional(),
  service: z.looseObject({ acsURL: z.string().optional(), startURL: z.string().optional(), entityID: z.string().optional() }).optional(),
});
export type ApiSamlProvider = z.infer<typeof ApiSamlProvider>;

/** The kind's API paths (the `p` tag encodes each ID as one path segment). */
export const paths = {
  samlProviders: (org: string) => p`/orgs/${org}/saml`,
  samlProvider: (org: string, id: string) => p`/orgs/${org}/saml/${id}`,
};

// ---- CRUD ----------------------------------------------------------------------------------------

function lookalikes(ctx: Ctx, given: SamlProviderInputs): Lookalikes<ApiSamlProvider> {
  const org = given.organizationId;
  return {
    kind: "SamlProvider",
    key: `${org}/${given.label}`,
    what: `SAML provider ${JSON.stringify(given.label)}`,
    // A lost answer may still have created the provider: one with this label that no other resource holds.
    candidates: async () => (await ctx.client.listAll(paths.samlProviders(org), ApiSamlProvider)).filter((s) => s.label === given.label),
    before: "list",
    createdAt: (s) => s.createdAt,
  };
}

async function create(ctx: Ctx, given: SamlProviderInputs): Promise<{ id: string; outs: SamlProviderOutputs }> {
  const org = given.organizationId;
  // A create never carries adoptId: the engine adopts instead of creating when it is set.
  const { organizationId: _org, ...body } = given;
  const created = await createOnce(ctx, { ...lookalikes(ctx, given), send: () => ctx.client.post(paths.samlProviders(org), { body, schema: ApiSamlProvider }) });
  // POST carries every setting: nothing follows.
  return finishCreate(definition, given, created);
}

async function read(ctx: Ctx, id: string, props: SamlProviderOutputs): Promise<SamlProviderOutputs | undefined> {
  const live = await getOrUndefined(ctx.client.get(paths.samlProvider(props.organizationId, id), { schema: ApiSamlProvider }));
  return live && refreshed(definition, props, live);
}

async function update(ctx: Ctx, id: string, olds: SamlProviderOutputs, news: SamlProviderInputs, changed: readonly string[]): Promise<SamlProviderOutputs> {
  const body = changedBody(definition, changed, news);
  const path = paths.samlProvider(news.organizationId, id);
  const live =
    Object.keys(body).length > 0
      ? await ctx.client.patch(path, { body, schema: ApiSamlProvider })
      : await ctx.client.get(path, { schema: ApiSamlProvider });
  return definition.outputsOf(declared(news), live);
}

async function remove(ctx: Ctx, id: string, props: SamlProviderOutputs): Promise<void> {
  await ctx.client.delete(paths.samlProvider(props.organizationId, id));
}

// ---- Declaration ---------------------------------------------------------------------------------

export const definition = defineResource({
  kind: "SamlProvider",
  import: {
    variableSuffix: "-saml",
    read: {
      organizationWide: true,
      into: "samlProviders",
      async find(ctx) {
        return (await ctx.list(paths.samlProviders(ctx.organizationId), ApiSamlProvider)).map((s) => ({
          id: s.id,
          label: s.label,
          // The API answers an empty string for what the provider does not have (as `live` reads it).
          ...defined({
            entityID: s.entityID || undefined,
            certificate: s.certificate || undefined,
            ssoURL: s.ssoURL || undefined,
            defaultTeamId: s.defaultTeam?.id,
            createdAt: s.createdAt,
          }),
          defaultRole: s.defaultRole ?? null,
        }));
      },
      progress: { done: (providers) => count(providers.length, "SAML provider") },
    },
  },
  adoptable: true,
  noun: "SAML provider",
  summary: "Single sign-on for the organization through a SAML identity provider.",
  inputs,
  outputs,
  live: (live: ApiSamlProvider) => ({
    label: live.label,
    // The API answers an empty string for what the provider does not have.
    entityID: live.entityID || undefined,
    certificate: live.certificate || undefined,
    ssoURL: live.ssoURL || undefined,
    defaultTeam: live.defaultTeam?.id,
    // The API answers null (or nothing) for guests.
    defaultRole: live.defaultRole ?? null,
  }),
  computed: (live) => ({
    status: live.status ?? "",
    acsURL: live.service?.acsURL ?? "",
    startURL: live.service?.startURL ?? "",
    serviceEntityID: live.service?.entityID ?? "",
    createdAt: live.createdAt ?? "",
  }),
  lookalikes,
  create,
  read,
  update,
  delete: remove,
});

/** A SAML single sign-on provider of a GitBook organization. */
export const SamlProvider = resourceClass(definition);
export type SamlProvider = InstanceType<typeof SamlProvider>;
export type SamlProviderArgs = ConstructorParameters<typeof SamlProvider>[1];
