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
 */
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { ApiSamlProvider, p, Role } from "../client";
import { adoptIdField, httpUrl, organizationIdField, text } from "../framework/check";
import { changedFields, type DiffRules } from "../framework/diff";
import {
  createOnce,
  declared,
  getOrUndefined,
  patchBody,
  refreshDeclared,
  resourceProps,
  type Ctx,
  type PatchRules,
  type Props,
  type ResourceDef,
} from "../framework/resource";
import { providerFor } from "../shim";

// ---- Types ---------------------------------------------------------------------------------------

export type SamlRole = "admin" | "create" | "review" | "edit" | "comment" | "read";

export type SamlProviderInputs = {
  organizationId: string;
  label: string;
  entityID?: string;
  certificate?: string;
  ssoURL?: string;
  defaultTeam?: string;
  /** null: guests. */
  defaultRole?: SamlRole | null;
  adoptId?: string;
};

export type SamlProviderOutputs = SamlProviderInputs & {
  status: string;
  acsURL: string;
  startURL: string;
  serviceEntityID: string;
  createdAt: string;
};

// ---- Schema --------------------------------------------------------------------------------------

export const samlProviderSchema = z.object({
  organizationId: organizationIdField,
  label: text({ min: 1, max: 30 }).describe("Name shown on the sign-in button, 1 to 30 characters."),
  entityID: text({ max: 1024 })
    .optional()
    .describe("The identity provider's entity ID (issuer), at most 1024 characters. Removing it clears it."),
  certificate: text({ max: 10000 })
    .optional()
    .describe("The identity provider's X.509 signing certificate (PEM or base64), at most 10000 characters. Removing it clears it."),
  ssoURL: httpUrl(2048)
    .optional()
    .describe("The identity provider's single sign-on URL, an http(s) URL of at most 2048 characters. Removing it clears it."),
  defaultTeam: z
    .string({ error: "must be a string" })
    .min(1, "must not be empty")
    .optional()
    .describe("ID of the team (e.g. a `Team` resource's `id`) new SSO users join. Removing it clears it."),
  defaultRole: z
    .enum(Role.options, { error: `must be one of ${Role.options.join(", ")}, or null for guests` })
    .nullable()
    .optional()
    .describe(
      "Organization role given to new SSO users: one of admin, create, review, edit, comment, read, or `null` to make them guests. When omitted the role is not managed (a new provider starts with guests); removing it leaves the current role in place.",
    ),
  adoptId: adoptIdField,
});

// ---- Diff rules ----------------------------------------------------------------------------------

/** `null` is a value here (guests); the diff helper treats null as unset, so give it a name to compare. */
const GUESTS = "(guests)";

export const samlProviderDiff: DiffRules = {
  fields: ["organizationId", "label", "entityID", "certificate", "ssoURL", "defaultTeam", "defaultRole"],
  replaceOn: ["organizationId"],
  view: (props) => ({ ...props, defaultRole: props.defaultRole === null ? GUESTS : props.defaultRole }),
};

const samlPatch: PatchRules = {
  patchable: ["label", "entityID", "certificate", "ssoURL", "defaultTeam", "defaultRole"],
  nullable: ["entityID", "certificate", "ssoURL", "defaultTeam"],
};

// ---- CRUD ----------------------------------------------------------------------------------------

const providersPath = (org: string) => p`/orgs/${org}/saml`;
const providerPath = (org: string, id: string) => p`/orgs/${org}/saml/${id}`;


/** Every input the API reports, keyed like the inputs (undefined when unset). */
function liveInputs(live: ApiSamlProvider): Props {
  return {
    label: live.label,
    entityID: live.entityID ?? undefined,
    certificate: live.certificate ?? undefined,
    ssoURL: live.ssoURL ?? undefined,
    defaultTeam: live.defaultTeam?.id,
    // The API answers null (or nothing) for guests.
    defaultRole: live.defaultRole ?? null,
  };
}

function outputs(declaredInputs: Partial<SamlProviderInputs>, live: ApiSamlProvider): SamlProviderOutputs {
  return {
    ...(declaredInputs as SamlProviderInputs),
    status: live.status ?? "",
    acsURL: live.service?.acsURL ?? "",
    startURL: live.service?.startURL ?? "",
    serviceEntityID: live.service?.entityID ?? "",
    createdAt: live.createdAt ?? "",
  };
}

/** The PATCH body; `patchBody` reads null as "remove", but a null `defaultRole` means guests and is sent. */
function samlPatchBody(changed: readonly string[], news: SamlProviderInputs): Props {
  const body = patchBody(changed, news, samlPatch);
  if (changed.includes("defaultRole") && news.defaultRole === null) body.defaultRole = null;
  return body;
}

async function create(ctx: Ctx, inputs: SamlProviderInputs): Promise<{ id: string; outs: SamlProviderOutputs }> {
  const org = inputs.organizationId;
  const { organizationId: _org, adoptId: _adopt, ...body } = inputs;
  const created = await createOnce(ctx, {
    kind: "SamlProvider",
    key: `${org}/${inputs.label}`,
    what: `SAML provider ${JSON.stringify(inputs.label)}`,
    send: () => ctx.client.post(providersPath(org), { body, schema: ApiSamlProvider }),
    // A lost answer may still have created the provider: one with this label that no other resource holds.
    candidates: async () => (await ctx.client.listAll(providersPath(org), ApiSamlProvider)).filter((s) => s.label === inputs.label),
    createdAt: (s) => s.createdAt,
  });
  return { id: created.id, outs: outputs(declared(inputs), created) };
}

async function read(ctx: Ctx, id: string, props: SamlProviderOutputs): Promise<SamlProviderOutputs | undefined> {
  const live = await getOrUndefined(ctx.client.get(providerPath(props.organizationId, id), { schema: ApiSamlProvider }));
  if (!live) return undefined;
  return outputs(refreshDeclared([...samlProviderDiff.fields, "adoptId"], props, liveInputs(live)), live);
}

async function update(ctx: Ctx, id: string, olds: SamlProviderOutputs, news: SamlProviderInputs): Promise<SamlProviderOutputs> {
  const body = samlPatchBody(changedFields(samlProviderDiff, olds, news), news);
  const path = providerPath(news.organizationId, id);
  const live =
    Object.keys(body).length > 0
      ? await ctx.client.patch(path, { body, schema: ApiSamlProvider })
      : await ctx.client.get(path, { schema: ApiSamlProvider });
  return outputs(declared(news), live);
}

async function remove(ctx: Ctx, id: string, props: SamlProviderOutputs): Promise<void> {
  await ctx.client.delete(providerPath(props.organizationId, id));
}

/** Like the default, but keeps a null `defaultRole` (guests), which the default drops as unset. */
function toInputs(outs: SamlProviderOutputs): Props {
  const out: Props = {};
  for (const f of Object.keys(samlProviderSchema.shape)) {
    const v = (outs as Props)[f];
    if (v !== undefined && (v !== null || f === "defaultRole")) out[f] = v;
  }
  return out;
}

export const definition: ResourceDef<SamlProviderInputs, SamlProviderOutputs> = {
  kind: "SamlProvider",
  schema: samlProviderSchema,
  diff: samlProviderDiff,
  create,
  read,
  update,
  delete: remove,
  toInputs,
};

// ---- Resource class ------------------------------------------------------------------------------

export type SamlProviderArgs = {
  label: pulumi.Input<string>;
  organizationId?: pulumi.Input<string>;
  entityID?: pulumi.Input<string>;
  certificate?: pulumi.Input<string>;
  ssoURL?: pulumi.Input<string>;
  defaultTeam?: pulumi.Input<string>;
  /** null: new SSO users join as guests; omit to leave the role unmanaged. */
  defaultRole?: pulumi.Input<SamlRole | null>;
  adoptId?: pulumi.Input<string>;
};

/** A SAML single sign-on provider of a GitBook organization. */
export class SamlProvider extends pulumi.dynamic.Resource {
  declare readonly organizationId: pulumi.Output<string>;
  declare readonly label: pulumi.Output<string>;
  declare readonly entityID: pulumi.Output<string | undefined>;
  declare readonly certificate: pulumi.Output<string | undefined>;
  declare readonly ssoURL: pulumi.Output<string | undefined>;
  declare readonly defaultTeam: pulumi.Output<string | undefined>;
  declare readonly defaultRole: pulumi.Output<SamlRole | null | undefined>;
  /** Status reported by GitBook, e.g. `pending` while the identity-provider side is incomplete. */
  declare readonly status: pulumi.Output<string>;
  /** Assertion consumer service URL to register in the identity provider. */
  declare readonly acsURL: pulumi.Output<string>;
  /** URL that starts a GitBook sign-in through this provider. */
  declare readonly startURL: pulumi.Output<string>;
  /** GitBook's own entity ID (the audience) to register in the identity provider. */
  declare readonly serviceEntityID: pulumi.Output<string>;
  declare readonly createdAt: pulumi.Output<string>;

  constructor(name: string, args: SamlProviderArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      providerFor("SamlProvider"),
      name,
      resourceProps(name, samlProviderSchema, args, ["status", "acsURL", "startURL", "serviceEntityID", "createdAt"]),
      opts,
      "gitbook",
      "SamlProvider",
    );
  }
}
