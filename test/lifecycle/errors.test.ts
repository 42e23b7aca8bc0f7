/**
 * What a user sees when a provider call fails, through the SDK's dynamic-provider host: the first line
 * names the resource, the input and the cause, whether or not other resources use the failed one's
 * outputs (and so repeat its error inside `error serializing property ...`), and whether or not the
 * program uses them at all.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeDeployments, startDeployment, type Decl, type Deployment } from "../support/lifecycle";

const ref = (s: string) => ({ $ref: s });

/**
 * The error a user reads. The engine renders a partial failure's reasons (an object created, then a
 * step failing) as a list, "1 error occurred:\n\t* <reason>", which the provider cannot change;
 * the reason itself is what must lead.
 */
const reason = (error = "") => error.replace(/^1 error occurred:\n\t\* /, "");

describeDeployments("a failed create", () => {
  let d: Deployment;
  beforeAll(async () => {
    d = await startDeployment();
  });
  afterAll(async () => d?.close());

  const writers = (name: string): Decl => ({ kind: "Team", name, args: { title: "Writers", members: [{ user: "nobody@acme.test" }] } });
  const UNKNOWN_USER = 'members: unknown user "nobody@acme.test" (not a member of this organization)';

  it("names the resource, the input and the cause on the first line, when another resource uses its outputs", async () => {
    const r = await d.run("up", [writers("docs-writers"), { kind: "SamlProvider", name: "sso", args: { label: "Okta", defaultTeam: ref("docs-writers.id") } }]);
    const [first, ...rest] = reason(r.error).split("\n");
    expect(first).toBe(`Team docs-writers: ${UNKNOWN_USER}`);
    expect(rest.join("\n")).toMatch(/^team team_\w+ exists but its membership could not be applied; it is kept in state, and the next `up` continues from there\n\(GitBook API 400 on PUT \/v1\/orgs\/\w+\/teams\/team_\w+\/members\)$/);
    expect(r.error).not.toContain("error serializing");
    expect(r.failed).toMatchObject({ name: "docs-writers", type: "pulumi-nodejs:dynamic/gitbook:Team" });
    expect(r.stdout).toContain(`pulumi-nodejs:dynamic/gitbook:Team (docs-writers):\n    error: 1 error occurred:\n    \t* Team docs-writers: ${UNKNOWN_USER}\n`);
    // The team exists and is in state, as the message says.
    expect(d.resource("docs-writers").id).toMatch(/^team_/);
    expect(d.state().resources.some((x) => x.name === "sso")).toBe(false);
  });

  it("fails the run with the same first line when the program uses none of its outputs", async () => {
    const r = await d.run("up", [writers("unused-writers"), { kind: "Site", name: "docs", args: { title: "Docs" } }], { config: { "lifecycle:exports": "none" } });
    expect(reason(r.error).split("\n")[0]).toBe(`Team unused-writers: ${UNKNOWN_USER}`);
  });

  it("names the input an API refusal is about, ahead of the request, and keeps the dependents' errors out", async () => {
    const site: Decl = { kind: "Site", name: "site", args: { title: "Error Docs" } };
    const r = await d.run("up", [
      site,
      { kind: "SiteSection", name: "guides", args: { siteId: ref("site.id"), spaceId: "spc_nope" } },
      { kind: "SiteSpace", name: "guides-v2", args: { siteId: ref("site.id"), sectionId: ref("guides.id"), spaceId: d.emu.seeded.spaceIds[1] } },
      { kind: "ShareLink", name: "reviewers", args: { siteId: ref("site.id"), name: "Reviewers" } },
    ]);
    expect(r.error).toMatch(/^SiteSection guides: spaceId: no space "spc_nope" in this organization\n\(GitBook API 400 on POST \/v1\/orgs\/\w+\/sites\/site_\w+\/sections\)$/);
  });
});
