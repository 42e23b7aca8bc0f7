/**
 * Every kind's lifecycle (test/support/scenarios.ts) through the real Pulumi CLI, all kinds in one
 * stack so that each step is one `pulumi` run: preview, create, update, replace, refresh with drift,
 * its converging up and a no-op, refresh after an out-of-band delete, adoption of the dropped objects'
 * replacements, destroy. Each scenario's resources are named "<kind>-<name>", so the programs stay
 * apart in one. The same scenarios run one kind at a time in process (test/unit/lifecycle.test.ts),
 * where a failure names its kind faster and a dropped object is also recreated; this suite proves the
 * engine, the SDK's serialization and the dynamic-provider host agree with them.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Emulator } from "../../emulator";
import { describeDeployments, startDeployment, steps, type Decl, type Deployment } from "../support/lifecycle";
import { scenarios, type Deployed } from "../support/scenarios";
import { differencesFromGitBook } from "../support/stateIsGitBook";
import { ORG_QUESTION } from "../support/provider";

const kinds = Object.values(scenarios);
const named = (kind: string, name: string) => `${kind}-${name}`;
const subject = (kind: string) => named(kind, "subject");

/** A scenario's declarations renamed into its own namespace, `$ref`s and `dependsOn` included. */
function renamed(kind: string, decls: Decl[]): Decl[] {
  const refs = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(refs);
    if (v && typeof v === "object") {
      const ref = (v as { $ref?: unknown }).$ref;
      if (typeof ref === "string") return { $ref: named(kind, ref) };
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, refs(x)]));
    }
    return v;
  };
  return decls.map((d) => ({
    ...d,
    name: named(kind, d.name),
    args: refs(d.args) as Record<string, unknown>,
    ...(d.dependsOn ? { dependsOn: d.dependsOn.map((n) => named(kind, n)) } : {}),
  }));
}

const all = (emu: Emulator, variant: "base" | "update" | "replace", skip: (kind: string) => boolean = () => false) =>
  kinds.filter((sc) => !skip(sc.kind)).flatMap((sc) => renamed(sc.kind, sc.program(emu, variant)));

describeDeployments("every kind through the Pulumi CLI", () => {
  let d: Deployment;
  const ids: Record<string, string> = {};
  const stepOf = (r: { steps: Array<{ name: string }> }, kind: string) => r.steps.find((s) => s.name === subject(kind)) as any;
  beforeAll(async () => {
    d = await startDeployment();
  });
  afterAll(async () => d?.close());
  /** After every successful up, each resource's state is what GitBook holds (issue 42): what a refresh would record. */
  const expectStateIsGitBook = async () => expect(await differencesFromGitBook(d.emu, d.state().resources)).toEqual([]);

  it("previews the creates sending nothing but the one question whether the token sees the organization", async () => {
    const r = await d.run("preview", all(d.emu, "base"));
    expect(r.error).toBeUndefined();
    for (const sc of kinds) expect(steps(r)).toContain(`create ${subject(sc.kind)}`);
    expect(d.emu.log.byRoute()).toEqual({ [ORG_QUESTION]: 1 });
  });

  it("creates", async () => {
    const r = await d.run("up", all(d.emu, "base"));
    expect(r.error).toBeUndefined();
    for (const sc of kinds) {
      expect(steps(r)).toContain(`create ${subject(sc.kind)}`);
      ids[sc.kind] = d.resource(subject(sc.kind)).id!;
      expect(sc.live(d.emu, ids[sc.kind]!), sc.kind).toBeDefined();
    }
    await expectStateIsGitBook();
  });

  it("updates each kind in place when its update field changes", async () => {
    // The up's own steps say what it planned (a preview first would be another run of the program).
    const r = await d.run("up", all(d.emu, "update"));
    expect(r.error).toBeUndefined();
    for (const sc of kinds) {
      expect(stepOf(r, sc.kind), sc.kind).toMatchObject({ op: "update", changed: [sc.updateField] });
      expect(d.resource(subject(sc.kind)).id, sc.kind).toBe(ids[sc.kind]);
      expect(d.resource(subject(sc.kind)).inputs[sc.updateField], sc.kind).toEqual(sc.program(d.emu, "update").at(-1)!.args[sc.updateField]);
    }
    await expectStateIsGitBook();
  });

  it("replaces each kind when its replace field changes", async () => {
    const r = await d.run("up", all(d.emu, "replace"));
    expect(r.error).toBeUndefined();
    for (const sc of kinds) {
      expect(stepOf(r, sc.kind), sc.kind).toMatchObject({ op: "replace", replaces: [sc.replaceField] });
      const newId = d.resource(subject(sc.kind)).id!;
      expect(newId, sc.kind).not.toBe(ids[sc.kind]);
      expect(sc.live(d.emu, ids[sc.kind]!), sc.kind).toBeUndefined();
      expect(sc.live(d.emu, newId), sc.kind).toBeDefined();
      ids[sc.kind] = newId;
    }
    await expectStateIsGitBook();
  });

  it("shows drift made outside Pulumi at refresh, converges it on the next up, then re-runs as a no-op with zero requests", async () => {
    const fields = Object.fromEntries(kinds.map((sc) => [sc.kind, sc.drift(d.emu, ids[sc.kind]!)]));
    const r = await d.run("refresh");
    expect(r.error).toBeUndefined();
    for (const sc of kinds) {
      const drifted = stepOf(r, sc.kind);
      expect(drifted?.op, sc.kind).toBe("refresh");
      expect(drifted.changed, sc.kind).toContain(fields[sc.kind]);
      const res = d.resource(subject(sc.kind));
      expect(res.inputs[fields[sc.kind]!], sc.kind).toEqual(res.outputs[fields[sc.kind]!]);
    }
    const back = await d.run("up");
    expect(back.error).toBeUndefined();
    for (const sc of kinds) {
      expect(stepOf(back, sc.kind)?.op, sc.kind).toBe("update");
      expect(stepOf(back, sc.kind).changed, sc.kind).toContain(fields[sc.kind]);
    }
    await expectStateIsGitBook();
    d.emu.log.reset();
    const again = await d.run("up");
    expect(again.error).toBeUndefined();
    expect(steps(again).every((s) => s.startsWith("same"))).toBe(true);
    expect(d.emu.log.count()).toBe(0);
  });

  // Recreating a dropped object on up is the in-process suite's (test/unit/lifecycle.test.ts): here the
  // objects dropped are the ones the adoption replaces, which saves the up that removed them.
  it("drops objects deleted outside Pulumi at refresh", async () => {
    for (const sc of kinds) sc.remove(d.emu, ids[sc.kind]!);
    const r = await d.run("refresh");
    expect(r.error).toBeUndefined();
    for (const sc of kinds) {
      expect(stepOf(r, sc.kind)?.op, sc.kind).toBe("read-gone");
      expect(d.state().resources.some((x) => x.name === subject(sc.kind)), sc.kind).toBe(false);
    }
  });

  it("adopts existing objects instead of creating others", async () => {
    // The subjects are out of state (the refresh dropped them) and gone from GitBook.
    const program = all(d.emu, "base");
    const before: Record<string, number> = {};
    for (const sc of kinds) {
      expect(sc.live(d.emu, ids[sc.kind]!), sc.kind).toBeUndefined();
      const deployed: Deployed = { resource: (name) => d.resource(named(sc.kind, name)) };
      const existing = await sc.existing(d.emu, deployed);
      program.find((x) => x.name === subject(sc.kind))!.args.adoptId = existing;
      ids[sc.kind] = existing;
      before[sc.kind] = sc.count(d.emu);
    }
    d.emu.log.reset();
    // A subject's remove took some dependencies along (a site's redirects go with their site, an
    // access list with its collection): the refresh dropped them too, and this up creates them again,
    // one POST each; everything else it sends adopts.
    const dropped = program.filter((x) => !x.name.endsWith("-subject") && !d.state().resources.some((y) => y.name === x.name));
    const r = await d.run("up", program);
    expect(r.error).toBeUndefined();
    expect(steps(r).filter((x) => x.startsWith("create")).sort()).toEqual([...kinds.map((sc) => subject(sc.kind)), ...dropped.map((x) => x.name)].map((n) => `create ${n}`).sort());
    for (const sc of kinds) {
      expect(d.resource(subject(sc.kind)).id, sc.kind).toBe(ids[sc.kind]);
      expect(sc.count(d.emu), sc.kind).toBe(before[sc.kind]! + dropped.filter((x) => x.kind === sc.kind).length);
    }
    expect(d.emu.log.count({ method: "POST" })).toBe(dropped.length);
    await expectStateIsGitBook();
  });

  it("destroys everything it made, leaving nothing behind", async () => {
    const r = await d.run("destroy");
    expect(r.error).toBeUndefined();
    expect(d.state().resources).toEqual([]);
    for (const sc of kinds) expect(sc.count(d.emu), sc.kind).toBe(0);
  });
});
