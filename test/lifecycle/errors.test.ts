/**
 * What a user sees when a provider call fails, through the SDK's dynamic-provider host: the first line
 * names the resource, the input and the cause, whether or not other resources use the failed one's
 * outputs (and so repeat its error inside `error serializing property ...`), and whether or not the
 * program uses them at all.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
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
 * Two failed creates in one run (--continue-on-error, so that each is carried as far as it goes), of a
 * program that exports nothing: a team another resource uses (a SamlProvider's optional defaultTeam),
 * and a team nothing uses. Each error's first line is its own, in the run's errors. A section GitBook
 * refuses, with dependents, is test/cli/cli.test.ts's failed up; a structure resource on a site Git Sync
 * owns is refused at check, proved in process by provider/resources/gitSyncInstallation.test.ts: a check
 * failure stops the engine's run at once, so it cannot share one.
 */
describeDeployments("a failed create", () => {
  let d: Deployment;
  let r: Awaited<ReturnType<Deployment["run"]>>;
  const writers = (name: string): Decl => ({ kind: "Team", name, args: { title: "Writers", members: [{ user: "nobody@acme.test" }] } });
  // Refused before the team is made: a list is applied whole or not at all.
  const UNKNOWN_USER = /members\[0\]\.user "nobody@acme\.test": no member of organization \w+ has this e-mail address or ID, so the team's members cannot be applied whole\. .*Nothing was changed\./;
  const lineOf = (prefix: string) => reasons(r.error).split("\n").find((l) => l.startsWith(prefix));
  beforeAll(async () => {
    d = await startDeployment();
    r = await d.run(
      "up",
      [
        writers("docs-writers"),
        { kind: "SamlProvider", name: "sso", args: { label: "Okta", defaultTeam: ref("docs-writers.id") } },
        writers("unused-writers"),
      ],
      { config: { "lifecycle:exports": "none" }, flags: ["--continue-on-error"] },
    );
  });
  afterAll(async () => d?.close());

  it("names the resource, the input and the cause on the first line, when another resource uses its outputs", () => {
    expect(lineOf("Team docs-writers: ")?.replace(/^Team docs-writers: /, "")).toMatch(new RegExp(`^${UNKNOWN_USER.source}$`));
    expect(r.error).not.toContain("error serializing");
    expect(r.stdout).toContain(`pulumi-nodejs:dynamic/gitbook:Team (docs-writers):\n    error: Team docs-writers: members[0].user "nobody@acme.test": no member of organization`);
    // Nothing was made, as the message says.
    expect(d.state().resources.some((x) => x.name === "docs-writers" || x.name === "sso")).toBe(false);
    expect(d.emu.store.teams.size).toBe(0);
  });

  it("fails a resource given its ID in an optional input at check, naming the resource and the input once", () => {
    // The engine sends the ID of a resource not created as nothing, as if defaultTeam were not given.
    const said = r.error!.split("\n").filter((l) => l.includes(NO_VALUE));
    expect(said).toEqual([expect.stringMatching(/\bsso\b.*defaultTeam has no value/)]);
    expect(r.stdout).not.toContain("Unexpected struct type");
    expect(d.emu.store.samlProviders.size).toBe(0);
  });

  it("fails the run with the same first line when the program uses none of its outputs", () => {
    expect(lineOf("Team unused-writers: ")?.replace(/^Team unused-writers: /, "")).toMatch(new RegExp(`^${UNKNOWN_USER.source}$`));
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
 * provider/config.test.ts's, and a check failure's rendering is the wrong organization's run here.
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

  it("preview without a token passes and says once, for the run, what will fail and how to set it", async () => {
    const r = await d.run("preview", [site, space], noToken);
    expect(r.error).toBeUndefined();
    const warned = said(r, "no GitBook API token");
    expect(warned).toHaveLength(1);
    expect(warned[0]).toContain("gitbook:token is not set, nor GITBOOK_TOKEN");
    expect(warned[0]).toContain("`pulumi up`, `pulumi refresh` and `npx pulumi-gitbook import` will fail");
    expect(warned[0]).toContain("pulumi config set --secret gitbook:token <token>");
  });

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
