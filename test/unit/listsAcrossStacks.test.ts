/**
 * What the README's safety section says of SiteRedirects and AccessList across stacks: a create finding
 * any rule or grant of the object refuses, naming them, with nothing written, even when they are exactly
 * as listed (the provider cannot prove it made them), so a second stack listing the same ones never
 * co-owns them; `adoptId` takes them over. A create that failed after its write stays in state, so its
 * retry is an update rather than a create that would refuse its own rules.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startProviderEnv, type ProviderEnv } from "../support/provider";

let env: ProviderEnv;
beforeAll(async () => {
  env = await startProviderEnv();
});
afterAll(async () => env.close());

const kinds = [
  {
    kind: "SiteRedirects",
    inputs: async () => {
      const siteId = (await env.up("Site", { title: "Shared Docs" })).state.id;
      return { siteId, rules: [{ source: "/old", destination: { url: "https://acme.test/new" } }] };
    },
    other: (i: Record<string, any>) => ({ ...i, rules: [{ source: "/older", destination: { url: "https://acme.test/new" } }] }),
    live: (i: Record<string, any>) => [...env.emu.store.siteRedirects.values()].filter((r) => r.siteId === i.siteId).length,
    exact: /already has 1 redirect rule \(\/old → https:\/\/acme.test\/new\), which this resource cannot prove it created/,
    refused: /already has 1 redirect rule \(\/old → https:\/\/acme.test\/new\)/,
  },
  {
    kind: "AccessList",
    inputs: async () => {
      const siteId = (await env.up("Site", { title: "Shared Docs" })).state.id;
      const teamId = (await env.up("Team", { title: "Shared Writers" })).state.id;
      return { siteId, teams: [{ teamId, role: "edit" }] };
    },
    other: (i: Record<string, any>) => ({ ...i, teams: [{ ...i.teams[0], role: "read" }] }),
    live: (i: Record<string, any>) => env.emu.store.permissionsOn("site", i.siteId, "team").length,
    exact: /already has grants this resource cannot prove it made .*: team .* \(edit, listed\)/,
    refused: /already has grants this resource cannot prove it made .*: team .* \(edit, listed as read\)/,
  },
];

describe.each(kinds)("$kind in two stacks", (k) => {
  it("is refused to a second stack listing exactly the same entries, naming them and adoptId, with no write; the first keeps them", async () => {
    const inputs = await k.inputs();
    const first = await env.up(k.kind, inputs);
    // The second stack: another provider process, no state of the first.
    env.outOfBand();
    env.emu.log.reset();
    await expect(env.up(k.kind, inputs)).rejects.toThrow(new RegExp(`${k.exact.source}[^]*adoptId: "${inputs.siteId}"`));
    expect(env.emu.log.writes()).toBe(0);
    expect(k.live(inputs)).toBe(1);
    // The first stack still holds them alone: its refresh and next up find nothing to do.
    env.outOfBand();
    const refreshed = (await env.refresh(k.kind, first.state))!;
    env.emu.log.reset();
    const again = await env.up(k.kind, inputs, refreshed.state);
    expect(again.step).toBe("same");
    expect(env.emu.log.writes()).toBe(0);
  });

  it("is refused to a second stack listing them otherwise, naming what is there, with no write", async () => {
    const inputs = await k.inputs();
    await env.up(k.kind, inputs);
    env.outOfBand();
    env.emu.log.reset();
    await expect(env.up(k.kind, k.other(inputs))).rejects.toThrow(k.refused);
    expect(env.emu.log.writes()).toBe(0);
  });

  it("takes them over with adoptId, with no write when they are exactly as listed", async () => {
    const inputs = await k.inputs();
    await env.up(k.kind, inputs);
    env.outOfBand();
    env.emu.log.reset();
    const adopted = await env.up(k.kind, { ...inputs, adoptId: inputs.siteId });
    expect(adopted.state.id).toBe(inputs.siteId);
    expect(env.emu.log.writes()).toBe(0);
  });
});
