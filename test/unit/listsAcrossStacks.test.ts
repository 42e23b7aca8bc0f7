/**
 * What the README's safety section says of SiteRedirects and AccessList across stacks: a create finding
 * the object's rules or grants exactly as listed takes them without `adoptId` and without a write (what
 * lets an interrupted create's retry converge), so a second stack listing the same ones takes them
 * too; from then on a delete in one takes away what the other still lists, until the other's next up.
 * And a list that differs from what is there is refused, naming it, with nothing written.
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
    refused: /already has 1 redirect rule this program does not list as they are \(\/old → https:\/\/acme.test\/new\)/,
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
    refused: /already has grants this list would remove or change: team .* \(edit, listed as read\)/,
  },
];

describe.each(kinds)("$kind in two stacks", (k) => {
  it("is taken by a second stack listing the same entries, with no write; its delete removes them from under the first", async () => {
    const inputs = await k.inputs();
    const first = await env.up(k.kind, inputs);
    // The second stack: another provider process, no state of the first.
    env.outOfBand();
    env.emu.log.reset();
    const second = await env.up(k.kind, inputs);
    expect(second.state.id).toBe(first.state.id);
    expect(env.emu.log.writes()).toBe(0);
    env.outOfBand();
    await env.destroy(k.kind, second.state);
    expect(k.live(inputs)).toBe(0);
    // The first stack's refresh shows them gone; its next up puts them back.
    env.outOfBand();
    const refreshed = (await env.refresh(k.kind, first.state))!;
    const back = await env.up(k.kind, inputs, refreshed.state);
    expect(back.step).toBe("update");
    expect(k.live(inputs)).toBe(1);
  });

  it("is refused to a second stack listing them otherwise, naming what is there, with no write", async () => {
    const inputs = await k.inputs();
    await env.up(k.kind, inputs);
    env.outOfBand();
    env.emu.log.reset();
    await expect(env.up(k.kind, k.other(inputs))).rejects.toThrow(k.refused);
    expect(env.emu.log.writes()).toBe(0);
  });
});
