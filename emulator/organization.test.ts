// Organization-level objects: OpenAPI specs (with their asynchronous processing), teams and SAML providers.
import { describe, expect, it } from "vitest";

import { expectContractViolation } from "../test/support/contract.setup";
import { Emulator } from "./emulator";
import { useEmulator, call, org, space, must, listAll, expectError, emu, type Json } from "../test/support/emulatorApi";

useEmulator();

// ------------------------------------------------------------------ OpenAPI

describe("OpenAPI specs", () => {
  const spec = (slug: string) => `${org()}/openapi/${slug}`;

  it("goes pending -> complete after one GET, with versions", async () => {
    const created = await must("POST", `${org()}/openapi`, { slug: "petstore", source: { text: "openapi: 3.1.0\ninfo: {}" } }, 201);
    expect(created).toMatchObject({ object: "openapi-spec", slug: "petstore", processingState: "pending", visibility: "private" });
    for (const key of ["lastVersion", "lastProcessedAt", "lastProcessErrorCode", "sourceURL"]) expect(created).not.toHaveProperty(key);

    expect((await must("GET", spec("petstore"), undefined, 200)).processingState).toBe("pending");
    const done = await must("GET", spec("petstore"), undefined, 200);
    expect(done).toMatchObject({ processingState: "complete", lastVersion: expect.any(String), lastProcessedAt: expect.any(String) });
    expect((await must("GET", `${spec("petstore")}/versions/latest`, undefined, 200)).id).toBe(done.lastVersion);
    // The text as uploaded, with its format; none for a spec GitBook fetches from a URL (below).
    expect(await must("GET", `${spec("petstore")}/versions/latest/content/raw`, undefined, 200)).toEqual({ text: "openapi: 3.1.0\ninfo: {}", format: "yaml" });

    expectError(await call("POST", `${org()}/openapi`, { slug: "petstore", source: { text: "openapi" } }), 409, "slug: ");

    const put = await must("PUT", spec("petstore"), { source: { url: "https://specs.acme.test/petstore.yaml" } }, 200);
    expect(put).toMatchObject({ processingState: "pending", sourceURL: "https://specs.acme.test/petstore.yaml", lastVersion: done.lastVersion });
    await must("GET", spec("petstore"), undefined, 200);
    const again = await must("GET", spec("petstore"), undefined, 200);
    expect(again.processingState).toBe("complete");
    expect(again.lastVersion).not.toBe(done.lastVersion);
    expectError(await call("GET", `${spec("petstore")}/versions/latest/content/raw`), 404, "OpenAPI spec raw content");
    const versions = await listAll(`${spec("petstore")}/versions`);
    expect(versions.map((v: Json) => v.id)).toEqual([done.lastVersion, again.lastVersion]);
    expect(versions[1]).toMatchObject({ object: "openapi-spec-version", url: "https://specs.acme.test/petstore.yaml" });
    expect((await must("GET", `${spec("petstore")}/versions/${done.lastVersion}`, undefined, 200)).id).toBe(done.lastVersion);
    // Each version's content by its id: the URL it came from, public only once the spec is.
    expect(await must("GET", `${spec("petstore")}/versions/${again.lastVersion}/content`, undefined, 200)).toEqual({ filesystem: {}, urls: { source: "https://specs.acme.test/petstore.yaml", public: null } });
    expectError(await call("GET", `${spec("petstore")}/versions/v_nope/content`), 404, 'OpenAPI spec version "v_nope" not found');
    expectError(await call("GET", `${spec("petstore")}/versions/${again.lastVersion}/content`.replace("petstore", "nope")), 404);

    expect((await must("PATCH", spec("petstore"), { visibility: "public" }, 200)).visibility).toBe("public");
    expect((await must("GET", `${spec("petstore")}/versions/${again.lastVersion}/content`, undefined, 200)).urls).toEqual({ source: "https://specs.acme.test/petstore.yaml", public: "https://specs.acme.test/petstore.yaml" });
    expectContractViolation(/updateOpenAPISpecBySlug request body \/visibility: must be one of "private", "public"/);
    expectError(await call("PATCH", spec("petstore"), { visibility: "internal" }), 400, "visibility: ");

    // PUT on an unknown slug creates it, and says so with a 201.
    expect((await must("PUT", spec("fresh"), { source: { text: "swagger: '2.0'" } }, 201)).processingState).toBe("pending");
    expectError(await call("PUT", spec("Bad_Slug"), { source: { text: "openapi" } }), 400, "slug: ");
  });

  it("completes with PARSE_ERROR for bad text and FETCH_ERROR for a URL it cannot fetch, keeping the last version", async () => {
    await must("POST", `${org()}/openapi`, { slug: "text", source: { text: "just some prose" } }, 201);
    await must("POST", `${org()}/openapi`, { slug: "url", source: { url: "https://invalid.example/openapi.json" } }, 201);
    await must("POST", `${org()}/openapi`, { slug: "ftp", source: { url: "ftp://specs.acme.test/openapi.yaml" } }, 201);
    for (const [slug, code] of [
      ["text", "PARSE_ERROR"],
      ["url", "FETCH_ERROR"],
      ["ftp", "FETCH_ERROR"],
    ] as const) {
      await must("GET", spec(slug), undefined, 200);
      const failed = await must("GET", spec(slug), undefined, 200);
      // The spec has no failed state: processing is over, and the code says it failed.
      expect(failed).toMatchObject({ processingState: "complete", lastProcessErrorCode: code, lastProcessedErrorCount: 1, lastProcessedErrors: [{ message: expect.any(String) }] });
      expect(failed).not.toHaveProperty("lastVersion");
      expectError(await call("GET", `${spec(slug)}/versions/latest`), 404);
    }
    // A new source clears the error and processes again.
    const retried = await must("PUT", spec("text"), { source: { text: "openapi: 3.0.3" } }, 200);
    expect(retried).toMatchObject({ processingState: "pending", lastProcessedErrorCount: 0 });
    expect(retried).not.toHaveProperty("lastProcessErrorCode");
    await must("GET", spec("text"), undefined, 200);
    const done = await must("GET", spec("text"), undefined, 200);
    expect(done).toMatchObject({ processingState: "complete", lastVersion: expect.any(String) });
    // A later failure leaves that version as the last one.
    await must("PUT", spec("text"), { source: { text: "prose again" } }, 200);
    await must("GET", spec("text"), undefined, 200);
    expect(await must("GET", spec("text"), undefined, 200)).toMatchObject({ processingState: "complete", lastProcessErrorCode: "PARSE_ERROR", lastVersion: done.lastVersion });
  });

  it("serves a version's content with its source URL, public only while the spec is", async () => {
    await must("POST", `${org()}/openapi`, { slug: "petstore", source: { url: "https://specs.acme.test/petstore.yaml" } }, 201);
    await must("GET", spec("petstore"), undefined, 200);
    await must("GET", spec("petstore"), undefined, 200);
    expect(await must("GET", `${spec("petstore")}/versions/latest/content`, undefined, 200)).toEqual({
      filesystem: {},
      urls: { source: "https://specs.acme.test/petstore.yaml", public: null },
    });
    await must("PATCH", spec("petstore"), { visibility: "public" }, 200);
    expect((await must("GET", `${spec("petstore")}/versions/latest/content`, undefined, 200)).urls.public).toBe("https://specs.acme.test/petstore.yaml");
  });

  it("honours openApiProcessingReads, including 0 and Infinity, and the per-spec freeze", async () => {
    const states = async (e: Emulator, slug: string, n: number) => {
      const out: string[] = [];
      for (let i = 0; i < n; i++) out.push((await call("GET", `/v1/orgs/${e.seeded.organizationId}/openapi/${slug}`, undefined, e.token, e)).body.processingState);
      return out;
    };
    for (const [reads, expected] of [
      [0, ["complete", "complete"]],
      [3, ["pending", "pending", "pending", "complete", "complete"]],
      [Infinity, Array(20).fill("pending")],
    ] as const) {
      const e = await Emulator.start({ openApiProcessingReads: reads });
      try {
        await call("POST", `/v1/orgs/${e.seeded.organizationId}/openapi`, { slug: "s", source: { text: "openapi" } }, e.token, e);
        expect(await states(e, "s", expected.length)).toEqual(expected);
      } finally {
        await e.close();
      }
    }

    await must("POST", `${org()}/openapi`, { slug: "frozen", source: { text: "openapi" } }, 201);
    emu.store.findOpenApiSpec(emu.seeded.organizationId, "frozen")!.frozen = true;
    expect(await states(emu, "frozen", 5)).toEqual(Array(5).fill("pending"));
    // Reads while frozen do not count: after thawing, the default single pending read still applies.
    emu.store.findOpenApiSpec(emu.seeded.organizationId, "frozen")!.frozen = false;
    expect(await states(emu, "frozen", 2)).toEqual(["pending", "complete"]);
  });
});

// ------------------------------------------------------------------ teams

describe("teams", () => {
  const members = () => emu.seeded.members;
  const memberList = async (teamId: string) =>
    (await listAll(`${org()}/teams/${teamId}/members`)).map((m: Json) => [m.organization.user.email, m.team.role]);

  it("creates teams with members and manages membership by id and e-mail", async () => {
    const [ada, grace, alan, katherine] = members();
    const team = await must("PUT", `${org()}/teams`, { title: "Writers", members: [ada!.id] }, 201);
    expect(team).toMatchObject({ object: "team", title: "Writers", members: 1, spaces: 0, permissions: { admin: true, view: true } });
    const items = await listAll(`${org()}/teams/${team.id}/members`);
    expect(items[0]).toMatchObject({ organization: { object: "member", id: ada!.id, role: "admin" }, team: { role: "member" }, permissions: { view: true } });

    const t = `${org()}/teams/${team.id}/members`;
    const r = await call("PUT", t, { add: [grace!.email.toUpperCase(), alan!.id], memberships: { [grace!.email]: { role: "owner" } } });
    expect(r.status).toBe(204);
    expect(r.body).toBeUndefined();
    expect(await memberList(team.id)).toEqual([
      [ada!.email, "member"],
      [grace!.email, "owner"],
      [alan!.email, "member"],
    ]);

    // A user both added and removed ends up removed; memberships also updates existing members.
    await must("PUT", t, { add: [katherine!.email], remove: [katherine!.id, alan!.email], memberships: { [ada!.id]: { role: "owner" } } }, 204);
    expect(await memberList(team.id)).toEqual([
      [ada!.email, "owner"],
      [grace!.email, "owner"],
    ]);

    // Unknown users are named in the 400, and nothing changes.
    expectError(await call("PUT", t, { add: [alan!.id, "ghost@acme.test"] }), 400, 'add: unknown user "ghost@acme.test"');
    expectError(await call("PUT", t, { remove: ["usr_ghost"] }), 400, 'remove: unknown user "usr_ghost"');
    expectContractViolation(/updateMembersInOrganizationTeam request body \/memberships\/[^/]+\/role: must be one of "owner", "member"/);
    expectError(await call("PUT", t, { memberships: { [ada!.id]: { role: "boss" } } }), 400, `memberships.${ada!.id}.role: `);
    expect((await memberList(team.id)).length).toBe(2);

    // Single-member routes.
    expect((await call("PUT", `${t}/${alan!.id}`, { role: "owner" })).status).toBe(204);
    expect((await call("PUT", `${t}/${grace!.id}`, {})).status).toBe(204);
    expect(await memberList(team.id)).toEqual([
      [ada!.email, "owner"],
      [grace!.email, "owner"],
      [alan!.email, "owner"],
    ]);
    expect((await call("PUT", `${t}/${alan!.id}`, { role: "member" })).status).toBe(204);
    expect((await call("DELETE", `${t}/${grace!.id}`)).status).toBe(205);
    expect((await call("DELETE", `${t}/${grace!.id}`)).status).toBe(204);
    expect(await memberList(team.id)).toEqual([
      [ada!.email, "owner"],
      [alan!.email, "member"],
    ]);
    expect((await must("GET", `${org()}/teams/${team.id}`, undefined, 200)).members).toBe(2);
    expect((await must("GET", `${org()}/members/${alan!.id}`, undefined, 200)).teams).toBe(1);
  });

  it("renames, filters and lists members of the organization", async () => {
    const team = await must("PUT", `${org()}/teams`, { title: "Writers" }, 201);
    await must("PUT", `${org()}/teams`, { title: "Reviewers" }, 201);
    expect((await must("PATCH", `${org()}/teams/${team.id}`, { title: "Authors" }, 200)).title).toBe("Authors");
    expect((await listAll(`${org()}/teams?title=AUTH`)).map((x: Json) => x.title)).toEqual(["Authors"]);
    await must("PUT", `${org()}/teams/${team.id}/members/${members()[0]!.id}`, { role: "owner" }, 204);
    expect((await listAll(`${org()}/teams?owner=${members()[0]!.id}`)).map((x: Json) => x.id)).toEqual([team.id]);

    const all = await listAll(`${org()}/members`);
    expect(all.length).toBeGreaterThanOrEqual(4);
    expect(all.filter((m: Json) => m.role === "admin")).toHaveLength(1);
    expect(all.every((m: Json) => m.object === "member" && m.user.email.includes("@"))).toBe(true);
    expect((await listAll(`${org()}/members?search=hopper`)).map((m: Json) => m.id)).toEqual([members()[1]!.id]);
    expect((await listAll(`${org()}/members?search=ALAN@`)).map((m: Json) => m.id)).toEqual([members()[2]!.id]);
    expect((await must("GET", `/v1/spaces/${space(1)}`, undefined, 200))).toMatchObject({ object: "space", title: "API reference", organization: emu.seeded.organizationId });
    expect(emu.seeded.spaceIds.length).toBeGreaterThanOrEqual(5);
  });
});

// ------------------------------------------------------------------ SAML

describe("SAML providers", () => {
  it("is pending until entityID, certificate and ssoURL are set", async () => {
    const team = await must("PUT", `${org()}/teams`, { title: "Everyone" }, 201);
    const p = await must("POST", `${org()}/saml`, { label: "Okta", defaultTeam: team.id }, 201);
    expect(p).toMatchObject({
      object: "saml-provider",
      label: "Okta",
      status: "pending",
      // Every provider object carries the three; one created without them has them empty (ssoURL, a URI: about:blank).
      entityID: "",
      certificate: "",
      ssoURL: "about:blank",
      defaultRole: null,
      defaultTeam: { object: "team", id: team.id },
      service: {
        acsURL: `https://app.gitbook.com/saml/${p.id}/acs`,
        startURL: expect.stringContaining(p.id),
        entityID: expect.stringContaining(p.id),
      },
      urls: { location: `${emu.url}${org()}/saml/${p.id}` },
    });
    const active = await must(
      "PATCH",
      `${org()}/saml/${p.id}`,
      { entityID: "urn:okta:acme", certificate: "MIIC...", ssoURL: "https://acme.okta.test/sso", defaultRole: "read" },
      200,
    );
    expect(active).toMatchObject({ status: "active", entityID: "urn:okta:acme", defaultRole: "read", label: "Okta" });
    // An empty entityID (or certificate) is a value the spec allows: the provider is incomplete again.
    const emptied = await must("PATCH", `${org()}/saml/${p.id}`, { entityID: "", defaultRole: null }, 200);
    expect(emptied).toMatchObject({ status: "pending", entityID: "", defaultRole: null, ssoURL: "https://acme.okta.test/sso" });
    // Nothing takes null but defaultRole; an empty defaultTeam names no team.
    expectContractViolation(/updateOrganizationSAMLProvider request body \/ssoURL: must be string \(got null\)/);
    expectContractViolation(/updateOrganizationSAMLProvider request body \/defaultTeam: must be string \(got null\)/);
    expectError(await call("PATCH", `${org()}/saml/${p.id}`, { ssoURL: null }), 400, "ssoURL: ");
    expectError(await call("PATCH", `${org()}/saml/${p.id}`, { defaultTeam: null }), 400, "defaultTeam: ");
    expectError(await call("PATCH", `${org()}/saml/${p.id}`, { defaultTeam: "" }), 400, "defaultTeam: ");
    expect((await must("GET", `${org()}/saml/${p.id}`, undefined, 200)).defaultTeam).toMatchObject({ id: team.id });

    expect(await must("GET", `${org()}/sso`, undefined, 200)).toEqual({ items: [{ id: p.id, label: "Okta", startURL: p.service.startURL }] });
  });
});
