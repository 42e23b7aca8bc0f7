/**
 * Every success is true and every stack converges (issue 20, items 3 and 6), through the real CLI:
 * right after `up`, a `refresh` finds nothing to change, neither in what it reports nor in the
 * checkpoint (`pulumi stack export`, since refresh may rewrite outputs while reporting `same`), and
 * `preview --expect-no-changes` passes. Over every kind with a minimal program (refresh hands back as
 * inputs only what the program declares, so no plan shows an undeclared field as removed), over every
 * example, and over every DocsSite option the reference documents (`site.published` included: the
 * Site must not record a publication its SitePublication makes later in the run).
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { EXAMPLE_DIR, exampleConfig } from "../../dev/example";
import { describeDeployments, startDeployment, type Decl, type Deployment } from "../support/lifecycle";

const ref = (s: string) => ({ $ref: s });

const SECRET_SIG = "4dabf18193072939515e22adb298388d";

/** A secret is encrypted afresh at every write (a new nonce): compared as "a secret", not by its ciphertext. */
function sealed(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sealed);
  if (v && typeof v === "object") {
    if ((v as Record<string, unknown>)[SECRET_SIG] !== undefined) return "[secret]";
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, sealed(x)]));
  }
  return v;
}

/** The checkpoint's resources as `pulumi stack export` holds them, by URN. */
function checkpoint(d: Deployment): Record<string, unknown> {
  return Object.fromEntries(d.state().resources.map((r) => [r.urn, sealed({ id: r.id, inputs: r.inputs, outputs: r.outputs })]));
}

/** up, then refresh and preview: the refresh changes nothing in state, and the preview plans nothing. */
async function expectConverged(d: Deployment, run: (op: "up" | "refresh" | "preview", flags?: string[]) => Promise<{ error?: string; steps: { op: string; name: string; type: string; changed?: string[] }[] }>) {
  const up = await run("up");
  expect(up.error).toBeUndefined();
  const before = checkpoint(d);
  const refresh = await run("refresh");
  expect(refresh.error).toBeUndefined();
  expect(refresh.steps.filter((s) => s.op !== "same").map((s) => `${s.op} ${s.name} [${(s.changed ?? []).join(", ")}]`)).toEqual([]);
  // Field by field, so a difference names its resource and field.
  const after = checkpoint(d);
  for (const urn of Object.keys(before)) expect(after[urn], urn).toEqual(before[urn]);
  expect(Object.keys(after).sort()).toEqual(Object.keys(before).sort());
  const preview = await run("preview", ["--expect-no-changes", "--diff"]);
  expect(preview.error).toBeUndefined();
  expect(preview.steps.filter((s) => s.op !== "same").map((s) => `${s.op} ${s.name} [${(s.changed ?? []).join(", ")}]`)).toEqual([]);
}

describeDeployments("every kind, declared minimally: refresh hands back only what the program declares", () => {
  let d: Deployment;
  beforeAll(async () => {
    d = await startDeployment();
  });
  afterAll(async () => d?.close());

  it("converges, and a change to one field plans that field alone", async () => {
    const s = d.emu.seeded.spaceIds;
    const decls: Decl[] = [
      { kind: "Site", name: "site", args: { title: "Minimal Docs" } },
      { kind: "SiteSection", name: "section", args: { siteId: ref("site.id"), spaceId: s[0] } },
      { kind: "SiteSpace", name: "siteSpace", args: { siteId: ref("site.id"), sectionId: ref("section.id"), spaceId: s[1] } },
      { kind: "SiteSectionGroup", name: "group", args: { siteId: ref("site.id"), title: "Group" }, dependsOn: ["section"] },
      { kind: "SiteExternalLink", name: "link", args: { siteId: ref("site.id"), title: "Status", url: "https://status.acme.test" }, dependsOn: ["section"] },
      { kind: "SiteStructureOrder", name: "order", args: { siteId: ref("site.id"), items: [ref("section.id"), ref("group.id"), ref("link.id")] } },
      { kind: "SiteAdaptiveSchema", name: "schema", args: { siteId: ref("site.id"), jsonSchema: { type: "object", properties: { beta: { type: "boolean", description: "Beta tester" } }, additionalProperties: false } } },
      { kind: "SitePublication", name: "publication", args: { siteId: ref("site.id"), published: true }, dependsOn: ["section", "siteSpace"] },
      { kind: "Site", name: "shared", args: { title: "Shared Docs", visibility: "share-link" } },
      { kind: "ShareLink", name: "shareLink", args: { siteId: ref("shared.id"), name: "Reviewers" } },
      { kind: "Space", name: "space", args: { title: "Notes" } },
      { kind: "Collection", name: "collection", args: { title: "Folder" } },
      { kind: "Team", name: "team", args: { title: "Writers" } },
      { kind: "SamlProvider", name: "saml", args: { label: "SSO" } },
      { kind: "OpenApiSpec", name: "spec", args: { slug: "minimal-api", source: { file: `${EXAMPLE_DIR}/examples/docs-site/openapi.yaml` } } },
    ];
    const run = (op: "up" | "refresh" | "preview", flags?: string[]) => d.run(op, decls, { flags });
    await expectConverged(d, run);
    const kinds = new Set(d.state().resources.filter((r) => r.custom).map((r) => r.type.split(":").pop()));
    expect(kinds.size).toBe(14);
    // After the refresh, a change of one declared field plans that field alone: nothing the program
    // leaves to GitBook (a site's type, visibility, publication) shows as removed.
    const renamed = decls.map((x) => (x.name === "site" ? { ...x, args: { ...x.args, title: "Minimal Docs 2" } } : x));
    const preview = await d.run("preview", renamed, { flags: ["--diff"] });
    expect(preview.error).toBeUndefined();
    expect(preview.steps.filter((x) => x.op !== "same").map((x) => `${x.op} ${x.name} [${(x.changed ?? []).join(", ")}]`)).toEqual(["update site [title]"]);
  });

  it("clears the undeclared fields an earlier version's refresh recorded as inputs, at the next refresh", async () => {
    // The checkpoint as 0.1.0 left it after a refresh: no list of declared live fields, and the
    // site's live settings recorded as if the program declared them.
    await d.editState((resources) => {
      for (const r of resources) {
        delete r.outputs.__gitbookDeclared;
        if (r.name === "site") Object.assign(r.inputs, { type: r.outputs.type, visibility: r.outputs.visibility, published: true });
      }
    });
    expect((await d.run("refresh")).error).toBeUndefined();
    const site = d.resource("site");
    expect(Object.keys(site.inputs).filter((k) => !k.startsWith("__")).sort()).toEqual(["organizationId", "title"]);
    // The site's settings are still its outputs, as GitBook reports them.
    expect(site.outputs).toMatchObject({ type: expect.any(String), visibility: "public" });
  });
});

describeDeployments("every DocsSite option of the reference", () => {
  let d: Deployment;
  beforeAll(async () => {
    d = await startDeployment();
  });
  afterAll(async () => d?.close());

  const visitorSchema = {
    type: "object",
    properties: {
      beta: { type: "boolean", description: "Beta tester" },
      plan: { type: "string", description: "The visitor's plan", enum: ["free", "pro"] },
    },
    additionalProperties: false,
  };

  it("converges a published share-link site with groups, links, created spaces, site spaces, share links, a visitor schema and the declared order", async () => {
    const s = d.emu.seeded.spaceIds;
    const topology = {
      site: { title: "Everything Docs", visibility: "share-link", published: true, basename: "everything", adaptiveContent: { enabled: true }, proxy: "acme.test/docs" },
      sections: [
        {
          key: "start",
          spaceId: s[0],
          title: "Start here",
          path: "start",
          icon: "rocket",
          description: "Where to begin",
          default: true,
          siteSpaces: [{ key: "v2", spaceId: s[1], path: "v2", condition: "visitor.claims.beta == true", default: true }],
        },
        {
          type: "group",
          key: "reference",
          title: "Reference",
          icon: "book",
          draft: false,
          sections: [
            { key: "api", spaceId: s[2], condition: 'visitor.claims.plan == "pro"' },
            { type: "link", key: "status", title: "Status", url: "https://status.acme.test", description: "Uptime", icon: "signal", draft: false },
          ],
        },
        { key: "tutorials", space: { title: "Tutorials", emoji: "📘", editMode: "live", language: "en" }, siteSpaces: [{ key: "adv", space: { title: "Advanced", key: "advanced" } }] },
        { type: "link", key: "blog", title: "Blog", url: "https://blog.acme.test", condition: "visitor.claims.beta == true" },
      ],
      shareLinks: [{ key: "reviewers", name: "Reviewers", active: true }],
      visitorSchema,
      order: "declared",
    };
    const decls: Decl[] = [{ kind: "DocsSite", name: "docs", args: topology }];
    await expectConverged(d, (op, flags) => d.run(op, decls, { flags }));
    const site = [...d.emu.store.sites.values()].find((x) => x.title === "Everything Docs")!;
    expect(site.published).toBe(true);
    // The publication's fact is recorded by the resource that made it.
    expect(d.resource("docs/publication").outputs.publishedUrl).toEqual(expect.stringMatching(/^https:\/\//));
  });

  it("converges an unpublished public site whose order is left to the app", async () => {
    const s = d.emu.seeded.spaceIds;
    const decls: Decl[] = [
      {
        kind: "DocsSite",
        name: "plain",
        args: { site: { title: "Plain Docs", visibility: "public", published: false }, sections: [{ key: "only", spaceId: s[3], siteSpaces: [{ key: "more", spaceId: s[4] }] }], order: "unmanaged" },
      },
    ];
    await expectConverged(d, (op, flags) => d.run(op, decls, { flags }));
  });
});

for (const stack of ["dev", "prod"] as const) {
  describeDeployments(`the docs-site example, stack ${stack}: up, refresh, preview`, () => {
    let d: Deployment;
    beforeAll(async () => {
      d = await startDeployment({ stack });
    });
    afterAll(async () => d?.close());

    it("converges: refresh changes nothing, and the preview plans nothing", async () => {
      await expectConverged(d, (op, flags) => d.run(op, undefined, { programDir: EXAMPLE_DIR, config: exampleConfig(d.emu), flags }));
    });
  });
}
