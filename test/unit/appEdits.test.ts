/**
 * Every field a program declares, edited in the app: refresh shows the edit on that field, the next
 * preview plans an update of it, `up` puts the declared value back, and a re-run sends nothing. For
 * every kind's lifecycle program (test/support/scenarios.ts), every declared field GitBook can change
 * in place; the edit is made out of band by another client (a fresh provider context), as the app
 * would. The alternate value derives from the field's schema, so a new field is covered without a
 * line here; a field no alternate can be derived for must be listed in UNDERIVED with the reason.
 */
import { describe, expect, it } from "vitest";
import equal from "fast-deep-equal";
import { z } from "zod";
import type { Emulator } from "../../emulator";
import { resources } from "../../provider/resources";
import { ruleOf } from "../../provider/framework/fields";
import { programSuite } from "../support/program";
import { scenarios } from "../support/scenarios";

/** Values of `schema` other than `v`, nearest first: edits the app could make (at least one, or why there is none). */
function alternates(schema: z.ZodType, v: unknown, emu: Emulator): unknown[] | { none: string } {
  const found = [...variants(v, emu)].filter((x) => !equal(x, v) && schema.safeParse(x).success).slice(0, 5);
  return found.length > 0 ? found : { none: `no value near ${JSON.stringify(v)} passes the field's check` };
}

/**
 * Values near `v`: the ID of another object of the same table for an ID, a string edited (a URL keeps
 * its scheme; an emoji becomes another), another member of an enum, a flipped boolean, a list one item
 * shorter, an object with one leaf edited.
 */
function* variants(v: unknown, emu: Emulator): Generator<unknown> {
  if (typeof v === "string") {
    const table = Object.values(emu.store).find((t): t is Map<string, Record<string, unknown>> => t instanceof Map && t.has(v));
    if (table) {
      const org = (r: Record<string, unknown>) => r.orgId ?? r.organizationId;
      const own = table.get(v)!;
      const others = [...table].filter(([id, r]) => id !== v && org(r) === org(own) && !r.deletedAt).map(([id]) => id);
      // None yet: the app makes one (a copy under a new ID), as a user would before moving the object there.
      if (others.length === 0) {
        const copy = { ...own, ...emu.store.newId(v.split("_")[0]!) };
        table.set(copy.id, copy);
        others.push(copy.id);
      }
      yield* others;
      return;
    }
    if (/^https?:\/\//.test(v)) yield* [`${v.replace(/\/$/, "")}/edited`, `${v}x`];
    else yield* [`${v} edited`, `${v}-edited`, `${v}x`, `${v.slice(0, -1)}y`, "edited", "🎉"];
  } else if (typeof v === "boolean") yield !v;
  else if (typeof v === "number") yield* [v + 1, v - 1];
  else if (Array.isArray(v)) {
    if (v.length > 0) yield v.slice(0, -1);
    for (let i = 0; i < v.length; i++) for (const x of variants(v[i], emu)) yield v.map((y, j) => (j === i ? x : y));
  } else if (v && typeof v === "object") {
    for (const [k, x] of Object.entries(v)) for (const y of variants(x, emu)) yield { ...v, [k]: y };
  }
}

/** The enum members of a field's schema, for a string value (which `variants` cannot know). */
function enumMembers(schema: z.ZodType): readonly unknown[] {
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable || schema instanceof z.ZodDefault) return enumMembers(schema.unwrap() as z.ZodType);
  return schema instanceof z.ZodEnum ? schema.options : [];
}

/** Declared fields the diff compares and GitBook changes in place. */
function editable(kind: string, declared: Record<string, unknown>, emu: Emulator) {
  const def = resources.find((r) => r.kind === kind)!;
  const shape = def.schema.shape as Record<string, z.ZodType>;
  return def.diff.fields
    .filter((f) => declared[f] !== undefined && shape[f] !== undefined)
    .filter((f) => (ruleOf(shape[f]!).change ?? "update") !== "replace" && !ruleOf(shape[f]!).local && !ruleOf(shape[f]!).fromProgram)
    .map((f) => {
      const members = enumMembers(shape[f]!).filter((m) => m !== declared[f]);
      return { field: f, alt: members.length > 0 ? members : alternates(shape[f]!, declared[f], emu) };
    });
}

/** Fields declared by a lifecycle program for which no alternate value derives from the schema, with why. */
const UNDERIVED: Record<string, string[]> = {};

/** Settings the subject declares here on top of its lifecycle program's, so that every field is edited. */
const CONDITION = "visitor.claims.staff == true";
const FULL: Record<string, Record<string, unknown>> = {
  Site: { visibility: "unlisted", published: false, basename: "docs", agentsContext: "included", proxy: "acme.test/docs", adaptiveContent: { enabled: true }, defaultLevel: "read" },
  SiteSection: { icon: "book", path: "guides", condition: CONDITION, description: "Start here", draft: false, default: true },
  SiteSpace: { condition: CONDITION, default: true },
  SiteSectionGroup: { icon: "layers", draft: false },
  SiteExternalLink: { description: "What changed", icon: "rss", draft: false, condition: CONDITION },
  Space: { language: "en", editMode: "live", defaultLevel: "read" },
  Collection: { defaultLevel: "read" },
  SiteRedirect: { permanent: true, captureWildcard: false },
  GitSyncInstallation: { projectDirectory: "", commitMessageTemplate: "docs: sync", previewExternalBranches: false },
};

const OLD_PATHS = "set by the provider, never declared: a rule deleted or changed in the app is provider/resources/oldPathRedirects.test.ts's";

/** Fields of a kind that no program here declares, with why; every other field GitBook can change in place is edited. */
const NOT_EDITED: Record<string, Record<string, string>> = {
  SiteSection: {
    groupId: "needs a group: moving a section in and out of groups in the app is test/lifecycle/appEdits.test.ts's",
    default: "GitBook has no 'not the default': the app makes another section the default (test/lifecycle/appEdits.test.ts)",
    oldPathRedirects: OLD_PATHS,
  },
  SiteSpace: {
    default: "GitBook has no 'not the default': the app makes another site space the default (test/lifecycle/appEdits.test.ts)",
    oldPathRedirects: OLD_PATHS,
    pageId: "a page of the space shown, which no value derived from the schema is: provider/resources/siteSpace.test.ts edits it in the app",
  },
  SiteExternalLink: { groupId: "needs a group: moving a link in and out of groups in the app is test/lifecycle/appEdits.test.ts's" },
  Space: { icon: "the program declares an emoji, and a space shows one or the other (provider/resources/space.test.ts edits an icon)" },
  Collection: { parent: "the lifecycle program has one collection (provider/resources/collection.test.ts moves one)" },
  SamlProvider: { defaultTeam: "needs a team" },
};

describe.each(Object.values(scenarios))("$kind: each declared field edited in the app", (sc) => {
  const s = programSuite();

  it("refresh shows it, preview plans its update, up puts the declared value back, and a re-run sends nothing", async () => {
    const program = sc.program(s.env.emu, "base").map((d) => (d.name === "subject" ? { ...d, args: { ...d.args, ...FULL[sc.kind] } } : d));
    await s.p.up(program);
    const subject = s.p.resource("subject");
    const fields = editable(sc.kind, subject.inputs, s.env.emu).filter((f) => !(f.field in (NOT_EDITED[sc.kind] ?? {})));
    const def = resources.find((r) => r.kind === sc.kind)!;
    const shape = def.schema.shape as Record<string, z.ZodType>;
    const inPlace = def.diff.fields.filter((f) => (ruleOf(shape[f]!).change ?? "update") !== "replace" && !ruleOf(shape[f]!).local && !ruleOf(shape[f]!).fromProgram);
    expect(inPlace.filter((f) => !fields.some((x) => x.field === f)).sort()).toEqual(Object.keys(NOT_EDITED[sc.kind] ?? {}).sort());
    const underived = fields.flatMap((f) => (Array.isArray(f.alt) ? [] : [`${f.field}: ${f.alt.none}`]));
    expect(underived).toEqual(UNDERIVED[sc.kind] ?? []);
    const edits = fields.flatMap((f) => (Array.isArray(f.alt) ? [{ field: f.field, values: f.alt }] : []));
    expect(edits.length).toBeGreaterThan(0);
    for (const { field, values } of edits) {
      const before = s.p.resource("subject");
      // The app's edit: another client changes the object; this provider's state knows nothing of it.
      // The first value GitBook takes (another space may already be shown there, say).
      const refusals: string[] = [];
      for (const value of values) {
        try {
          await s.env.up(sc.kind, { ...before.inputs, [field]: value }, { id: before.id, outs: before.outputs });
          break;
        } catch (e) {
          refusals.push((e as Error).message);
        }
      }
      expect({ field, refusals: refusals.length < values.length ? [] : refusals }).toEqual({ field, refusals: [] });
      s.env.outOfBand();
      const refreshed = (await s.p.refresh()).find((x) => x.name === "subject");
      expect({ field, refreshed: refreshed?.op, changed: refreshed?.changed?.includes(field) }).toEqual({ field, refreshed: "refresh", changed: true });
      const planned = (await s.p.preview()).find((x) => x.name === "subject");
      // (The in-process runner's `changed` compares raw inputs: a refreshed text source reads back as its hash.)
      expect({ field, planned: planned?.op, changed: planned?.changed?.includes(field) }).toEqual({ field, planned: "update", changed: true });
      await s.p.up();
      expect({ field, after: (await s.p.refresh()).filter((x) => x.op !== "same") }).toEqual({ field, after: [] });
      expect((await s.p.preview()).every((x) => x.op === "same")).toBe(true);
      s.env.emu.log.reset();
      expect((await s.p.up()).every((x) => x.op === "same")).toBe(true);
      expect(s.env.emu.log.count()).toBe(0);
    }
  });
});
