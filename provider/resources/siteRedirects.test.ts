/**
 * SiteRedirect and SiteRedirects in process, against the emulator: the checks at preview (each naming
 * its field, no request), the authoritative set (what it sends, what it refuses to take over, what a
 * refused item leaves), path destinations, and a lost create answer.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startProviderEnv, rejectsAtCheck, type BadInput, type ProviderEnv } from "../../test/support/provider";

let env: ProviderEnv;
let siteId: string;
beforeAll(async () => {
  env = await startProviderEnv();
  siteId = (await env.up("Site", { title: "Redirect Docs" })).state.id;
});
afterAll(async () => env.close());
beforeEach(() => env.emu.faults.clear());

const url = (u: string) => ({ url: u });
const REDIRECTS = /\/redirects$/;
const rulesOf = (site: string) => [...env.emu.store.siteRedirects.values()].filter((r) => r.siteId === site);
const newSite = async (title: string, extra: Record<string, unknown> = {}) => (await env.up("Site", { title, ...extra })).state.id;

describe("SiteRedirect check", () => {
  const bad: BadInput[] = [
    ["source", { source: "old" }, /source must match a path of the site/],
    ["source", { source: "/a b" }, /source must match/],
    ["source", { source: "/*" }, /source must match/],
    ["source", { source: "/a*/b" }, /source must match/],
    ["source", { source: "/a//b" }, /source must match/],
    ["source", { source: `/${"a".repeat(512)}` }, /source must be 2 to 512 characters/],
    ["destination", { destination: {} }, /destination must name exactly one destination: path, url, siteSectionId or siteSpaceId \(got none\)/],
    ["destination", { destination: { url: "https://a.test", siteSectionId: "s" } }, /got url and siteSectionId/],
    ["destination.url", { destination: url("ftp://a.test") }, /destination.url must be an absolute http\(s\) URL/],
    ["destination.path", { destination: { path: "/blog/*" } }, /destination.path must match a path of the site without wildcard/],
    ["destination.pageId", { destination: { pageId: "p" } }, /needs siteSpaceId/],
    ["draft", { draft: "yes" }, /draft must be a boolean/],
  ];
  rejectsAtCheck(() => env, "SiteRedirect", { siteId: "site_x", source: "/old", destination: url("https://example.com") }, bad);
});

describe("SiteRedirects check", () => {
  const rules = (...r: object[]) => ({ rules: r });
  const bad: BadInput[] = [
    ["rules[1].source", rules({ source: "/a", destination: url("https://x.test") }, { source: "/a", destination: url("https://y.test") }), /redirects from \/a as rules\[0\] already does/],
    ["rules[0].destination", rules({ source: "/a", destination: { path: "/b" } }, { source: "/b", destination: url("https://x.test") }), /leads to \/b, which rules\[1\] redirects again \(a chain/],
    ["rules[0].destination", rules({ source: "/a", destination: { path: "/b" } }, { source: "/b", destination: { path: "/a" } }), /forms a loop, \/a \(rules\[0\]\) → \/b \(rules\[1\]\) → \/a \(rules\[0\]\)/],
    ["rules[0].destination", rules({ source: "/a", destination: { path: "/a" } }), /sends visitors from \/a back to \/a, a loop/],
    ["rules[0].destination", rules({ source: "/a", destination: { path: "/blog/2020/post" } }, { source: "/blog/*", destination: url("https://x.test") }), /leads to \/blog\/2020\/post, which rules\[1\] redirects again/],
    ["rules[0].source", rules({ source: "a", destination: url("https://x.test") }), /must match a path of the site/],
    // Another site's rules: adopted, the resource recorded that site's ID with this siteId, and its
    // state claimed rules the declared site did not have (nothing was written there).
    ["adoptId", { ...rules({ source: "/a", destination: url("https://x.test") }), adoptId: "site_y" }, /^adoptId must be the site's ID, "site_x" \(a site's rules have no ID of their own\), not "site_y"$/],
  ];
  rejectsAtCheck(() => env, "SiteRedirects", { siteId: "site_x" }, bad);

  it("takes no URL for a path of the site, and tells a draft rule from a live one", async () => {
    const r = await env.check("SiteRedirects", {
      siteId: "site_x",
      rules: [
        // A site moving domains: the same path on another host is no loop.
        { source: "/a", destination: url("https://new.example.com/a") },
        { source: "/b", destination: { path: "/c" } },
        { source: "/c", draft: true, destination: url("https://x.test") },
        { source: "/b", draft: true, destination: url("https://y.test") },
      ],
    });
    expect(r.failures).toBeUndefined();
  });
});

describe("SiteRedirects", () => {
  it("creates the listed rules with one bulk PUT, then sends nothing for the same program", async () => {
    const site = await newSite("Set Docs");
    const given = { siteId: site, rules: [{ source: "/a", destination: url("https://x.test/a") }, { source: "/b/*", destination: url("https://x.test/b"), captureWildcard: true }] };
    env.emu.log.reset();
    const r = await env.up("SiteRedirects", given);
    expect(r.state.id).toBe(site);
    expect(r.state.outs.ruleCount).toBe(2);
    expect(env.emu.log.count({ method: "PUT", route: REDIRECTS })).toBe(1);
    expect(env.emu.log.writes()).toBe(1);
    expect(rulesOf(site).map((x) => [x.source, x.captureWildcard])).toEqual([
      ["/a", false],
      ["/b/*", true],
    ]);
    env.emu.log.reset();
    expect((await env.up("SiteRedirects", given, r.state)).step).toBe("same");
    expect(env.emu.log.count()).toBe(0);
  });

  it("deletes a rule added in the app once a refresh has shown it, and changes only what differs (one PUT item)", async () => {
    const site = await newSite("Authority Docs");
    const given = { siteId: site, rules: [{ source: "/a", destination: url("https://x.test/a") }, { source: "/b", destination: url("https://x.test/b") }] };
    const r = await env.up("SiteRedirects", given);
    env.emu.store.siteRedirects.set("redir_app", { id: "redir_app", seq: 99999, createdAt: new Date().toISOString(), siteId: site, source: "/app", draft: true, captureWildcard: false, permanent: false, destination: { kind: "external", url: "https://app.test" } });
    env.outOfBand();
    const refreshed = (await env.refresh("SiteRedirects", r.state))!;
    expect(refreshed.inputs.rules).toEqual([...given.rules, { source: "/app", destination: url("https://app.test"), draft: true }]);
    env.emu.log.reset();
    const changed = { ...given, rules: [given.rules[0], { source: "/b", destination: url("https://x.test/b2") }] };
    const up = await env.up("SiteRedirects", changed, refreshed.state);
    expect(up.step).toBe("update");
    expect(env.emu.log.count({ method: "PUT", route: REDIRECTS })).toBe(1);
    expect(rulesOf(site).map((x) => [x.source, x.destination.url]).sort()).toEqual([
      ["/a", "https://x.test/a"],
      ["/b", "https://x.test/b2"],
    ]);
  });

  it("refuses to take over any rule of the site without adoptId, even one exactly as listed, naming them and writing nothing; adoptId takes them over", async () => {
    const site = await newSite("Foreign Docs");
    env.emu.store.siteRedirects.set("redir_old", { id: "redir_old", seq: 99998, createdAt: new Date().toISOString(), siteId: site, source: "/legacy", draft: false, captureWildcard: false, permanent: true, destination: { kind: "external", url: "https://old.test" } });
    const given = { siteId: site, rules: [{ source: "/a", destination: url("https://x.test/a") }] };
    env.emu.log.reset();
    await expect(env.up("SiteRedirects", given)).rejects.toThrow(/rules: site .* already has 1 redirect rule \(\/legacy → https:\/\/old.test\), which this resource cannot prove it created .*nothing was written.*adoptId: "/);
    expect(env.emu.log.writes()).toBe(0);
    // Rules exactly as listed may be another stack's: refused all the same.
    await expect(env.up("SiteRedirects", { siteId: site, rules: [{ source: "/legacy", destination: url("https://old.test"), permanent: true }] })).rejects.toThrow(/already has 1 redirect rule .*cannot prove it created.*adoptId: "/);
    expect(env.emu.log.writes()).toBe(0);
    const adopted = await env.up("SiteRedirects", { ...given, adoptId: site });
    expect(adopted.state.id).toBe(site);
    expect(rulesOf(site).map((x) => x.source)).toEqual(["/a"]);
  });

  // Issue 42, case 7: GitBook refuses an item naming a site space the site does not have, and applies the others.
  it("applies its rules whole or not at all: a section or site space the site does not have is refused before any write, naming the rule", async () => {
    const site = await newSite("Unknown Target Docs");
    env.emu.log.reset();
    const given = {
      siteId: site,
      rules: [{ source: "/a", destination: url("https://x.test/a") }, { source: "/b", destination: { siteSpaceId: "sitesp_missing" } }, { source: "/c", destination: { siteSectionId: "sitesc_missing" } }],
    };
    await expect(env.up("SiteRedirects", given)).rejects.toThrow(
      `SiteRedirects: rules[1].destination.siteSpaceId "sitesp_missing", rules[2].destination.siteSectionId "sitesc_missing": site ${site} has no such sections or site spaces, so the rules cannot be applied whole. ` +
        "Pass the `id` output of a SiteSection or SiteSpace of this site, or remove the rule. Nothing was changed.",
    );
    expect(env.emu.log.writes()).toBe(0);
    expect(rulesOf(site)).toEqual([]);
  });

  it("keeps the applied rules when GitBook refuses one all the same, recording what the site has (partial failure), and converges next time", async () => {
    const site = await newSite("Refused Docs");
    const section = (await env.up("SiteSection", { siteId: site, spaceId: env.emu.seeded.spaceIds[0] })).state.id;
    const given = { siteId: site, rules: [{ source: "/a", destination: url("https://x.test/a") }, { source: "/b", destination: { siteSectionId: section } }] };
    // The section is deleted in the app between the check of the rules and their PUT.
    const record = env.emu.log.record.bind(env.emu.log);
    env.emu.log.record = (entry) => {
      record(entry);
      if (entry.method !== "GET" || !entry.route.endsWith("/structure")) return;
      env.emu.log.record = record;
      env.emu.store.deleteSection(section);
    };
    const err = await env.up("SiteRedirects", given).catch((e) => e);
    env.emu.log.record = record;
    expect(err).toMatchObject({ name: "PartialFailure", id: site });
    expect(err.message).toMatch(/GitBook refused 1 of the 2 rule changes \(the others were applied\): rules\[1\] \(\/b\): destination.siteSectionId: /);
    expect(err.properties.rules).toEqual([{ source: "/a", destination: url("https://x.test/a") }]);
    const fixed = await env.up("SiteRedirects", { ...given, rules: [given.rules[0]] }, { id: err.id, outs: err.properties });
    expect(fixed.step).toBe("same");
  });

  it("keeps a create in state whose PUT went through before the run failed, so the retry is no create (which would refuse the rules)", async () => {
    const site = await newSite("Failed After Write");
    const given = { siteId: site, rules: [{ source: "/a", destination: url("https://x.test/a") }] };
    // Every PUT is applied and its answer lost: the client gives up, the rules are there.
    const fault = env.emu.faults.add({ match: { method: "PUT", route: REDIRECTS }, dropAfterProcess: true });
    const err = await env.up("SiteRedirects", given).catch((e) => e);
    fault.remove();
    expect(err).toMatchObject({ name: "PartialFailure", id: site });
    expect(err.message).toMatch(/^SiteRedirects site_\w+: rules: [^]*\nsite site_\w+: the rules were changed part way before the request failed; it is kept in state/);
    expect(err.properties.rules).toEqual(given.rules);
    env.outOfBand();
    env.emu.log.reset();
    const next = await env.up("SiteRedirects", given, { id: err.id, outs: err.properties });
    expect(next.step).toBe("same");
    expect(env.emu.log.writes()).toBe(0);
    expect(rulesOf(site).map((x) => x.source)).toEqual(["/a"]);

    // An update too: it failed with state recording the rules as they were before.
    env.emu.faults.add({ match: { method: "PUT", route: REDIRECTS }, dropAfterProcess: true });
    const changed = await env.up("SiteRedirects", { siteId: site, rules: [{ source: "/b", destination: url("https://x.test/b") }] }, next.state).catch((e) => e);
    env.emu.faults.clear();
    expect(changed).toMatchObject({ name: "PartialFailure", id: site });
    expect(changed.properties.rules).toEqual([{ source: "/b", destination: url("https://x.test/b") }]);
    expect(rulesOf(site).map((x) => x.source)).toEqual(["/b"]);
  });

  it("survives a lost answer to the bulk PUT: the resent request's refusals of what the first applied are no failure", async () => {
    const site = await newSite("Lost Bulk");
    const r = await env.up("SiteRedirects", { siteId: site, rules: [{ source: "/x", destination: url("https://x.test/x") }] });
    env.emu.faults.add({ match: { method: "PUT", route: REDIRECTS }, dropAfterProcess: true, times: 1 });
    const next = await env.up("SiteRedirects", { siteId: site, rules: [{ source: "/a", destination: url("https://x.test/a") }] }, r.state);
    expect(next.step).toBe("update");
    expect(env.emu.log.count({ method: "PUT", route: REDIRECTS })).toBeGreaterThanOrEqual(2);
    expect(rulesOf(site).map((x) => x.source)).toEqual(["/a"]);
  });

  it("sends a path as the site's published URL and reads it back as the path; an unpublished site fails naming destination.path", async () => {
    const unpublished = await newSite("Draft Docs");
    env.emu.log.reset();
    await expect(env.up("SiteRedirects", { siteId: unpublished, rules: [{ source: "/a", destination: { path: "/b" } }] })).rejects.toThrow(
      /destination.path: site .* has no published URL yet/,
    );
    expect(env.emu.log.writes()).toBe(0);

    const site = await newSite("Live Docs", { published: true });
    const r = await env.up("SiteRedirects", { siteId: site, rules: [{ source: "/a", destination: { path: "/b" } }] });
    const published = env.emu.store.sites.get(site)!;
    expect(rulesOf(site)[0]!.destination).toEqual({ kind: "external", url: expect.stringMatching(new RegExp(`/${published.basename}/b$`)) });
    env.outOfBand();
    const refreshed = (await env.refresh("SiteRedirects", r.state))!;
    expect(refreshed.inputs.rules).toEqual([{ source: "/a", destination: { path: "/b" } }]);
  });

  it("deletes the rules it lists when destroyed, and leaves the site's other rules", async () => {
    const site = await newSite("Destroy Docs");
    const r = await env.up("SiteRedirects", { siteId: site, rules: [{ source: "/a", destination: url("https://x.test/a") }] });
    env.emu.store.siteRedirects.set("redir_later", { id: "redir_later", seq: 99997, createdAt: new Date().toISOString(), siteId: site, source: "/later", draft: false, captureWildcard: false, permanent: false, destination: { kind: "external", url: "https://l.test" } });
    await env.destroy("SiteRedirects", r.state);
    expect(rulesOf(site).map((x) => x.source)).toEqual(["/later"]);
  });
});

describe("SiteRedirect", () => {
  it("recovers from a lost POST answer without creating the rule twice", async () => {
    env.emu.faults.add({ match: { method: "POST", route: REDIRECTS }, dropAfterProcess: true, times: 1 });
    const r = await env.up("SiteRedirect", { siteId, source: "/lost", destination: url("https://x.test") });
    expect(rulesOf(siteId).filter((x) => x.source === "/lost").map((x) => x.id)).toEqual([r.state.id]);
    expect(env.emu.log.count({ method: "POST", route: REDIRECTS })).toBe(1);
  });

  it("refreshes many rules of a site with one listing", async () => {
    const site = await newSite("Many Rules");
    const states = [];
    for (let i = 0; i < 5; i++) states.push((await env.up("SiteRedirect", { siteId: site, source: `/r${i}`, destination: url(`https://x.test/${i}`) })).state);
    env.outOfBand();
    env.emu.log.reset();
    const read = await Promise.all(states.map((st) => env.refresh("SiteRedirect", st)));
    expect(read.map((r) => r!.state.id)).toEqual(states.map((st) => st.id));
    expect(env.emu.log.count()).toBe(1);
  });

  it("refuses a source the site already has a rule for, naming that rule and how to adopt it", async () => {
    const existing = (await env.up("SiteRedirect", { siteId, source: "/taken", destination: url("https://x.test") })).state.id;
    await expect(env.up("SiteRedirect", { siteId, source: "/taken", destination: url("https://y.test") })).rejects.toThrow(
      new RegExp(`source: site ${siteId} already has a redirect from /taken \\(${existing}\\).*Adopt it with adoptId "${existing}".*Nothing was created`),
    );
  });

  it("replaces the rule when draft changes, and updates other fields in place with one PATCH", async () => {
    const first = await env.up("SiteRedirect", { siteId, source: "/move", destination: url("https://x.test") });
    env.emu.log.reset();
    const moved = await env.up("SiteRedirect", { siteId, source: "/moved", destination: url("https://x.test"), permanent: true }, first.state);
    expect(moved.step).toBe("update");
    expect(env.emu.log.writes()).toBe(1);
    expect(env.emu.store.siteRedirects.get(first.state.id)).toMatchObject({ source: "/moved", permanent: true });
    const drafted = await env.up("SiteRedirect", { siteId, source: "/moved", destination: url("https://x.test"), draft: true }, moved.state);
    expect(drafted.step).toBe("replace");
    expect(drafted.diff?.replaces).toEqual(["draft"]);
  });
});
