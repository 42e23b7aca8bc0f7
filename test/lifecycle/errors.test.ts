/**
 * What a user sees when a provider call fails, through the SDK's dynamic-provider host: the first line
 * names the resource, the input and the cause, whether or not other resources use the failed one's
 * outputs (and so repeat its error inside `error serializing property ...`), and whether or not the
 * program uses them at all.
 */
import * as fs from "node:fs";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Emulator } from "../../emulator";
import { describeDeployments, startDeployment, type Decl, type Deployment } from "../support/lifecycle";
import { ORG_QUESTION } from "../support/provider";
import { NO_VALUE } from "../../provider/framework/check";

const ref = (s: string) => ({ $ref: s });

/**
 * The error a user reads. The engine renders a partial failure's reasons (an object created, then a
 * step failing) as a list, "1 error occurred:\n\t* <reason>", which the provider cannot change;
 * the reason itself is what must lead.
 */
const reasons = (error = "") => error.replace(/(^|\n)1 error occurred:\n\t\* /g, "$1");

/**
 * One `up` fails several ways at once (--continue-on-error, so that each create is carried as far as it
 * goes, whatever the others do), each case checked on its own resources:
 * - two teams refused before they are made: one another resource uses (a SamlProvider's optional
 *   defaultTeam), one nothing uses, not even the program's outputs; each error's first line is its own;
 * - a section GitBook refuses, beside a sibling that needs only the site, the program exporting each
 *   one's ID;
 * - a partial failure: a team created, its member's write refused;
 * - beside them a resource with a secret input, which succeeds.
 * (Once two runs, this file's and test/cli/cli.test.ts's, issue 40.) One dependent of a failed create
 * per run: the engine stops at the first check that fails (writers-sso's here), so the section's
 * dependent, a SiteSpace given its sectionId, left with cli.test.ts's run; that check names a required
 * reference with no value as it does an optional one (not "is required"), for every reference of every
 * kind, is test/unit/unresolvedReferences.test.ts's, in process. A structure resource on a site Git
 * Sync owns is refused at check, proved in process by provider/resources/gitSyncInstallation.test.ts: a
 * check failure stops the engine's run at once, so it cannot share one; bad input failing check before
 * any request is provider/resources/*.test.ts's.
 */
describeDeployments("a failed create", () => {
  let d: Deployment;
  let r: Awaited<ReturnType<Deployment["run"]>>;
  const writers = (name: string): Decl => ({ kind: "Team", name, args: { title: "Writers", members: [{ user: "nobody@acme.test" }] } });
  // Refused before the team is made: a list is applied whole or not at all.
  const UNKNOWN_USER = /members\[0\]\.user "nobody@acme\.test": no member of organization \w+ has this e-mail address or ID, so the team's members cannot be applied whole\. .*Nothing was changed\./;
  const lineOf = (prefix: string) => reasons(r.error).split("\n").find((l) => l.startsWith(prefix));
  const program = (emu: Emulator): Decl[] => [
    writers("docs-writers"),
    writers("unused-writers"),
    { kind: "Site", name: "site", args: { title: "Failing Docs" } },
    { kind: "SiteSection", name: "section", args: { siteId: ref("site.id"), spaceId: "spc_does_not_exist", title: "Guides" } },
    // And one that needs only the site, which was made.
    { kind: "ShareLink", name: "reviewers", args: { siteId: ref("site.id"), name: "Reviewers" } },
    { kind: "Team", name: "team", args: { title: "Docs Team", members: [{ user: emu.seeded.members[1]!.email }] } },
    // As a program would: from secret stack config.
    { kind: "SamlProvider", name: "sso", args: { label: "Okta", entityID: "http://www.okta.com/exk1", ssoURL: "https://acme.okta.com/sso", certificate: { $secretConfig: "samlCertificate" } } },
    // Its check fails, which ends the engine's run at once: so it waits for every other resource (declared after them all, as the program needs).
    { kind: "SamlProvider", name: "writers-sso", args: { label: "Writers IdP", defaultTeam: ref("docs-writers.id") }, dependsOn: ["unused-writers", "site", "section", "reviewers", "team", "sso"] },
  ];
  beforeAll(async () => {
    d = await startDeployment();
    // The team is created, and its member's write refused: a partial failure (a member the organization
    // lacks is refused before any write, as the Writers teams are, so a refusal of the write itself stands for one).
    d.emu.faults.add({ match: { method: "PUT", route: "/v1/orgs/:org/teams/:team/members" }, errorRate: 1, status: 500, times: 1 });
    const failing = program(d.emu);
    r = await d.run("up", failing, {
      // Every resource's ID is an output of the program but unused-writers': a program that uses none of its outputs.
      config: { "lifecycle:exports": JSON.stringify(failing.map((x) => x.name).filter((n) => n !== "unused-writers")), "lifecycle:samlCertificate": "MIIC-secret-certificate" },
      flags: ["--continue-on-error"],
    });
  });
  afterAll(async () => d?.close());
  const teamsTitled = (title: string) => [...d.emu.store.teams.values()].filter((t) => t.title === title);

  it("names the resource, the input and the cause on the first line, when another resource uses its outputs", () => {
    expect(lineOf("Team docs-writers: ")?.replace(/^Team docs-writers: /, "")).toMatch(new RegExp(`^${UNKNOWN_USER.source}$`));
    expect(r.error).not.toContain("error serializing");
    // Its dependent does not repeat it: the address appears in the two teams' errors alone.
    expect(r.error!.split("\n").filter((l) => l.includes("nobody@acme.test"))).toHaveLength(2);
    expect(r.stdout).toContain(`pulumi-nodejs:dynamic/gitbook:Team (docs-writers):\n    error: Team docs-writers: members[0].user "nobody@acme.test": no member of organization`);
    // Nothing was made, as the message says.
    expect(d.state().resources.some((x) => x.name === "docs-writers" || x.name === "writers-sso")).toBe(false);
    expect(teamsTitled("Writers")).toEqual([]);
  });

  it("fails a resource given its ID in an optional input at check, naming the resource and the input once", () => {
    // The engine sends the ID of a resource not created as nothing, as if defaultTeam were not given.
    const said = r.error!.split("\n").filter((l) => l.includes(NO_VALUE) && l.includes("defaultTeam"));
    expect(said).toEqual([expect.stringMatching(/\bwriters-sso\b.*defaultTeam has no value/)]);
    expect(r.stdout).not.toContain("Unexpected struct type");
    expect([...d.emu.store.samlProviders.values()].filter((p) => p.label === "Writers IdP")).toEqual([]);
  });

  it("fails the run with the same first line when the program uses none of its outputs", () => {
    expect(lineOf("Team unused-writers: ")?.replace(/^Team unused-writers: /, "")).toMatch(new RegExp(`^${UNKNOWN_USER.source}$`));
  });

  it("fails `pulumi up` when a create fails, and records nothing of it", () => {
    expect(r.code).not.toBe(0);
    // The refusal names the input it is about, ahead of the request, and its dependents do not repeat it.
    expect(r.stdout).toMatch(
      /pulumi-nodejs:dynamic\/gitbook:SiteSection \(section\):\n    error: SiteSection section: spaceId: no space "spc_does_not_exist" in this organization\n    \(GitBook API 400 on POST \/v1\/orgs\/\w+\/sites\/site_\w+\/sections\)\n\n/,
    );
    expect(r.error!.split("\n").filter((l) => l.includes("spc_does_not_exist"))).toHaveLength(1);
    expect(d.state().resources.some((x) => x.name === "section")).toBe(false);
    expect(d.emu.store.sections.size).toBe(0);
    // The site it was for was made, and so was what needs only the site.
    expect(d.resource("reviewers").id).toBeDefined();
  });

  it("keeps a secret input secret in state", () => {
    expect([...d.emu.store.samlProviders.values()].filter((p) => p.label === "Okta")).toHaveLength(1);
    expect(JSON.stringify(d.state())).not.toContain("MIIC-secret-certificate");
    expect(fs.readFileSync(d.statePath, "utf8")).not.toContain("MIIC-secret-certificate");
    expect(d.resource("sso").inputs.certificate).toMatchObject({ ciphertext: expect.any(String) });
  });

  // The next up finishing the job from what state recorded is the provider's: provider/resources/createdThenFailed.test.ts.
  it("keeps a partial failure in state, and fails the run", () => {
    expect(r.stdout).toMatch(/Team team: .*500/);
    const kept = d.resource("team");
    expect(kept.id).toBeDefined();
    expect(teamsTitled("Docs Team").map((t) => t.id)).toEqual([kept.id]);
    expect(d.emu.store.teamMembersOf(kept.id!)).toEqual([]);
  });
});

/**
 * The diagnostics of a run that carry `text`: the engine's own events under the CLI (its display
 * prints each diagnostic twice, as it happens and again in the summary), the output's lines under the harness.
 */
const said = (r: { stdout: string; diagnostics?: string[] }, text: string) => (r.diagnostics ?? r.stdout.split("\n")).filter((l) => l.includes(text));

/**
 * Each setting's run. A server that is not GitBook's API, summarised at the organization question: the
 * summary is provider/client/answers.test.ts's, the question failing check naming organizationId is
 * provider/config.test.ts's, and a check failure's rendering is the wrong organization's run here. A
 * preview without a token passing and warning once is the installed program's (test/install/installed.ts,
 * issue 40: a preview a new user's program makes anyway).
 */
describeDeployments("configuration errors", () => {
  let d: Deployment;
  beforeAll(async () => {
    d = await startDeployment();
  });
  afterAll(async () => d?.close());

  const site: Decl = { kind: "Site", name: "docs", args: { title: "Docs" } };
  const space: Decl = { kind: "Space", name: "guide", args: { title: "Guide" } };
  const noToken = { config: { "gitbook:token": "" } };
  const custom = () => d.state().resources.filter((x) => x.type.startsWith("pulumi-nodejs:dynamic"));

  it("up without a token fails before any request, naming the setting once, without a stack", async () => {
    d.emu.log.reset();
    const r = await d.run("up", [site, space], noToken);
    expect(r.error).toMatch(/^No GitBook API token: gitbook:token is not set, nor GITBOOK_TOKEN; set it with `pulumi config set --secret gitbook:token <token>`/);
    expect(said(r, "gitbook:token")).toHaveLength(1);
    // One line, no stack: how the program's process fails a run on a setting, a malformed gitbook:apiUrl
    // alike (its message, for preview and up: provider/config.test.ts).
    expect(r.error).not.toContain("\n");
    expect(r.stdout).not.toMatch(/^\s+at /m);
    expect(d.emu.log.count()).toBe(0);
    expect(custom()).toHaveLength(0);
  });

  it("a wrong gitbook:organizationId fails the preview at its first resource, naming the setting and the fix once, after one request", async () => {
    d.emu.log.reset();
    const team: Decl = { kind: "Team", name: "writers", args: { title: "Writers" } };
    const r = await d.run("preview", [site, space, team], { config: { "gitbook:organizationId": "org_wrong" } });
    const lines = said(r, 'gitbook:organizationId is "org_wrong"');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/an organization GitBook does not show this token \(404 organization "org_wrong" not found\): set it to the ID after \/o\/ in your organization's address on app\.gitbook\.com \(`pulumi config set gitbook:organizationId <id>`\)/);
    expect(r.checkFailures).toEqual([expect.objectContaining({ property: "organizationId" })]);
    expect(r.stdout).not.toMatch(/^\s+at /m);
    expect(d.emu.log.byRoute()).toEqual({ [ORG_QUESTION]: 1 });
  });
});
