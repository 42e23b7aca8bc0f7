/** Settings declared in part: groups managed field by field, every other value whole. */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { declaredPart, mergeDeclared, overridesPatch, settingsGroup } from "./settings";

const color = z.object({ light: z.string(), dark: z.string() });
const schema = settingsGroup(
  {
    title: z.string(),
    styling: settingsGroup({ theme: z.string(), primaryColor: color, sidebar: settingsGroup({ list: z.string(), background: z.string() }, "sidebar") }, "styling"),
    favicon: z.union([z.object({ emoji: z.string() }), z.object({ icon: color })]),
    links: z.array(z.string()),
  },
  "settings",
);

const live = {
  title: "Acme",
  styling: { theme: "bold", primaryColor: { light: "#111", dark: "#222" }, sidebar: { list: "pill", background: "filled" }, font: "Lato" },
  favicon: { icon: { light: "https://a.test/l", dark: "https://a.test/d" } },
  links: ["a", "b"],
  feedback: { enabled: true },
};

describe("declaredPart", () => {
  it("keeps a group's declared fields alone, and takes any other value whole", () => {
    expect(declaredPart(schema, live, { styling: { sidebar: { list: "line" } }, favicon: { emoji: "🚀" }, links: ["a"] })).toEqual({
      styling: { sidebar: { list: "pill" } },
      favicon: live.favicon,
      links: ["a", "b"],
    });
  });

  it("leaves out a declared field GitBook does not have, so the diff shows it", () => {
    expect(declaredPart(schema, { styling: {} }, { styling: { theme: "clean" } })).toEqual({ styling: {} });
  });
});

describe("mergeDeclared", () => {
  it("puts the declared settings in and keeps every other, down to a group's fields", () => {
    const merged = mergeDeclared(schema, live, { styling: { primaryColor: { light: "#fff", dark: "#000" }, sidebar: { list: "line" } }, favicon: { emoji: "🚀" } });
    expect(merged).toEqual({
      ...live,
      styling: { ...live.styling, primaryColor: { light: "#fff", dark: "#000" }, sidebar: { list: "line", background: "filled" } },
      // A union is one value: never the icon and the emoji together.
      favicon: { emoji: "🚀" },
    });
  });
});

describe("overridesPatch", () => {
  it("sends what changed, null for what is no longer declared, nothing when nothing changed", () => {
    const olds = { title: "A", styling: { theme: "bold", primaryColor: { light: "#111", dark: "#222" } } };
    expect(overridesPatch(schema, olds, olds)).toBeUndefined();
    expect(overridesPatch(schema, olds, { styling: { theme: "muted", primaryColor: { light: "#111", dark: "#222" } } })).toEqual({ title: null, styling: { theme: "muted" } });
    // A colour is one value: both themes sent when one changes.
    expect(overridesPatch(schema, olds, { ...olds, styling: { ...olds.styling, primaryColor: { light: "#333", dark: "#222" } } })).toEqual({ styling: { primaryColor: { light: "#333", dark: "#222" } } });
    expect(overridesPatch(schema, olds, {})).toEqual({ title: null, styling: { theme: null, primaryColor: null } });
  });
});
