/**
 * The main example's config mistakes (examples/docs-site/index.ts), found by the program itself before it
 * declares a resource: so, run here under Pulumi's mocks with the stack's config, the program throws
 * having registered nothing, and no request can have been sent. Through the CLI these were two previews of
 * test/examples/docsSite.test.ts (issue 40: engine runs are the suite's cost); how the CLI renders a
 * program's thrown error, one message and no stack of the program, is test/lifecycle/errors.test.ts's
 * no-token `up`, and the example drops its error's stack itself (asserted here).
 */
import * as pulumi from "@pulumi/pulumi";
import { afterAll, expect, it, vi } from "vitest";
import { EXAMPLE_DIR, SPACE_TITLES } from "../../dev/example";
import { readProject } from "../../dev/project";
import { mockedRegistrations } from "../support/mocks";

// The program imports the package by name, as a user's does; here, its sources.
vi.mock("pulumi-gitbook", () => import("../../provider/index"));

const registered = mockedRegistrations("docs-site", true);
afterAll(() => pulumi.runtime.setAllConfig({}));

/**
 * The dev stack's config (the project file's and the stack file's), with each space name given an ID: the
 * config test/examples/docsSite.test.ts deploys, so each mistake below is the only change to a valid one.
 */
function devConfig(): Record<string, string> {
  return {
    ...readProject(EXAMPLE_DIR, "dev").config,
    "docs-site:spaces": JSON.stringify(Object.fromEntries(Object.keys(SPACE_TITLES).map((name) => [name, `spc_${name.replace(/-/g, "_")}`]))),
  };
}

/** Runs the example's program with `config`; the error it throws, which names every mistake. */
async function mistakesOf(config: Record<string, string>): Promise<Error> {
  pulumi.runtime.setAllConfig(config);
  vi.resetModules();
  const thrown = await import("../../examples/docs-site/index").then(
    () => undefined,
    (e: Error) => e,
  );
  expect(thrown).toBeInstanceOf(pulumi.RunError);
  // Nothing declared, so nothing sent: the program checks its whole config first. (A registration
  // reaches the mocks asynchronously: once the SDK's queue of them has drained.)
  await (pulumi.runtime as unknown as { waitForRPCs(): Promise<void> }).waitForRPCs();
  expect(registered).toEqual([]);
  // The message alone: the SDK would print the program's stack after it (and Node 20.20's util.inspect
  // loops on the SDK's source-mapped frames, see index.ts).
  expect(thrown!.stack).toBe(`${thrown!.name}: ${thrown!.message}`);
  return thrown!;
}

it("fails naming each key and limit, every mistake in whichever key it is, the topology's own rules against the config key they came from", async () => {
  const sections = JSON.parse(devConfig()["docs-site:sections"]!);
  sections[1].title = "G";
  sections[3].sections[0].siteSpaces[0].space = "no-such-space";
  sections[1].siteSpaces[1].condition = "visitor.claims.stafff == true";
  sections[1].siteSpaces[1].path = "p".repeat(101);
  sections[2].default = true;
  sections[1].siteSpaces[0].space = "guides";
  const { message } = await mistakesOf({
    ...devConfig(),
    "docs-site:sections": JSON.stringify(sections),
    "docs-site:title": "A",
    "docs-site:team": JSON.stringify({ title: "Docs writers", members: [{ user: "ada" }] }),
    "docs-site:visibility": "secret",
    "docs-site:branding": JSON.stringify({ styling: { theme: "neon" } }),
    "docs-site:redirects": JSON.stringify([{ source: "/a", destination: { path: "/b" } }, { source: "/b", destination: { path: "/a" } }]),
    "docs-site:writersRole": "owner",
  });
  expect(message).toContain("docs-site:sections[1].title: must be 2 to 128 characters");
  expect(message).toContain("docs-site:sections[3].sections[0].siteSpaces[0].space: names no space in docs-site:spaces");
  // A condition naming a claim the visitor schema does not declare, with the claim it probably meant.
  expect(message).toContain(
    'docs-site:sections[1].siteSpaces[1].condition: "visitor.claims.stafff == true" names the claim visitor.claims.stafff, but visitorSchema declares no visitor.claims.stafff; nearest declared claim: visitor.claims.staff',
  );
  expect(message).toContain("docs-site:sections[1].siteSpaces[1].path: must be 1 to 100 characters");
  expect(message).toContain("docs-site:team.members[0].user: must be the e-mail address of a member of the organization");
  expect(message).toContain("docs-site:visibility: must be one of public, unlisted, share-link, visitor-auth");
  expect(message).toContain('docs-site:branding.styling.theme: must be one of "clean", "muted", "bold", "gradient"');
  expect(message).toContain("docs-site:redirects[0].destination: forms a loop");
  expect(message).toContain("docs-site:writersRole: must be admin, create, edit, review, comment or read");
  expect(message).toContain("docs-site:title: must be 2 to 128 characters");
  expect(message).toContain("docs-site:sections[2].default: is true but sections[0] is already the default section");
  expect(message).toContain("docs-site:sections[1].siteSpaces[0].space: shows the same space as sections[1].spaceId");
});

it("says how to set the space IDs when they are missing", async () => {
  const { "docs-site:spaces": _omitted, ...withoutSpaces } = devConfig();
  const { message } = await mistakesOf(withoutSpaces);
  expect(message).toContain("docs-site:spaces: is required");
  expect(message).toContain("pulumi config set --path 'docs-site:spaces.<name>' <space-id>");
});
