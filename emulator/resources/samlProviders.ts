// SAML single-sign-on providers, and the organization's SSO list they make up.
import { created, deleted, invalid, LIMITS, list, notFound, nullable, ok, oneOf, required, str, validate, type Infer, type Router } from "../http";
import { ROLES, type OrgRecord, type SamlProviderRecord } from "../store";
import { apiUrl, APP, child, compact, getOrg, ORG, type Ctx, type Env } from "./resource";
import { teamView } from "./teams";

// The IdP fields are plain strings in both bodies: null clears nothing. An empty entityID or
// certificate is a valid value (the spec sets no minimum) and leaves the provider incomplete; the
// ssoURL, a URI, cannot be emptied. Only defaultRole takes null (guests).
const SAML_FIELDS = {
  label: str(LIMITS.samlLabel),
  entityID: str(LIMITS.samlEntityID),
  certificate: str(LIMITS.samlCertificate),
  ssoURL: str(LIMITS.samlSsoURL),
  defaultTeam: str(),
  defaultRole: nullable(oneOf(ROLES)),
};

/**
 * The ssoURL of a provider created without one. The spec requires every provider object to carry an
 * ssoURL that is a URI, and lets a provider be created with none (it is then `pending`); GitBook's
 * answer for that case is not documented. about:blank (RFC 6694) is the URI that designates nothing.
 */
const NO_SSO_URL = "about:blank";

function samlService(id: string) {
  return {
    acsURL: `${APP}/saml/${id}/acs`,
    startURL: `${APP}/saml/${id}/start`,
    entityID: `${APP}/saml/${id}`,
  };
}

export function samlView(e: Env, p: SamlProviderRecord) {
  const team = p.defaultTeamId ? e.store.teams.get(p.defaultTeamId) : undefined;
  return compact({
    object: "saml-provider",
    id: p.id,
    label: p.label,
    ssoURL: p.ssoURL ?? NO_SSO_URL,
    entityID: p.entityID ?? "",
    certificate: p.certificate ?? "",
    defaultTeam: team ? teamView(e, team) : undefined,
    defaultRole: p.defaultRole,
    createdAt: p.createdAt,
    // Usable only once the IdP side is fully described.
    status: p.entityID && p.certificate && p.ssoURL ? "active" : "pending",
    service: samlService(p.id),
    urls: { location: apiUrl(e, `/orgs/${p.orgId}/saml/${p.id}`) },
  });
}

export function ssoItemView(e: Env, p: SamlProviderRecord) {
  return { id: p.id, label: p.label, startURL: samlService(p.id).startURL };
}

function applySaml(c: Ctx, org: OrgRecord, p: SamlProviderRecord, b: Infer<typeof SAML_FIELDS>): void {
  if (b.defaultTeam !== undefined && !child(c.store.teams, b.defaultTeam, (t) => t.orgId === org.id)) {
    invalid("defaultTeam", `no team "${b.defaultTeam}" in this organization`);
  }
  if (b.label !== undefined) p.label = b.label;
  if (b.entityID !== undefined) p.entityID = b.entityID;
  if (b.certificate !== undefined) p.certificate = b.certificate;
  if (b.ssoURL !== undefined) p.ssoURL = b.ssoURL;
  if (b.defaultTeam !== undefined) p.defaultTeamId = b.defaultTeam;
  if (b.defaultRole !== undefined) p.defaultRole = b.defaultRole;
}

function getSaml(c: Ctx): SamlProviderRecord {
  const org = getOrg(c);
  return child(c.store.samlProviders, c.params.saml!, (p) => p.orgId === org.id) ?? notFound("SAML provider", c.params.saml!);
}

export function routes(r: Router<Ctx>): void {
  r.add("GET", `${ORG}/saml`, (c) => {
    const org = getOrg(c);
    return list(
      c.query,
      [...c.store.samlProviders.values()].filter((p) => p.orgId === org.id),
      (p) => samlView(c, p),
    );
  });

  r.add("POST", `${ORG}/saml`, (c) => {
    const org = getOrg(c);
    const b = validate(c.body, { ...SAML_FIELDS, label: required(str(LIMITS.samlLabel)) });
    const provider: SamlProviderRecord = { ...c.store.newId("saml"), orgId: org.id, label: b.label, defaultRole: null };
    applySaml(c, org, provider, b);
    c.store.samlProviders.set(provider.id, provider);
    return created(samlView(c, provider));
  });

  r.add("GET", `${ORG}/saml/:saml`, (c) => ok(samlView(c, getSaml(c))));

  r.add("PATCH", `${ORG}/saml/:saml`, (c) => {
    const provider = getSaml(c);
    const org = getOrg(c);
    const b = validate(c.body, SAML_FIELDS);
    applySaml(c, org, provider, b);
    return ok(samlView(c, provider));
  });

  r.add("DELETE", `${ORG}/saml/:saml`, (c) => {
    const org = getOrg(c);
    const provider = child(c.store.samlProviders, c.params.saml!, (p) => p.orgId === org.id);
    return deleted(provider !== undefined && c.store.samlProviders.delete(provider.id));
  });

  r.add("GET", `${ORG}/sso`, (c) => {
    const org = getOrg(c);
    const items = [...c.store.samlProviders.values()].filter((p) => p.orgId === org.id).map((p) => ssoItemView(c, p));
    return ok({ items });
  });
}
