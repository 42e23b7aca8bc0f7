/**
 * The settings of GitBook's site customization (the spec's SiteCustomizationSettings), as the two
 * branding kinds declare them: SiteCustomization (the site's own settings) and SiteSpaceCustomization
 * (a site space's overrides of them). Each setting carries the spec's limits, so a mistake fails at
 * preview naming its path (`styling.primaryColor.light must be a hex colour`).
 *
 * Groups (`styling`, `header`, `footer`...) are declared with settingsGroup (framework/settings.ts):
 * their fields are managed one by one, so a program declaring `styling.primaryColor` leaves the rest
 * of `styling` as it is. Everything else is one value, compared and written whole.
 *
 * Deprecated settings of the spec (`internationalization`, `styling.background`, `header.preset`,
 * `header.backgroundColor`, `header.linkColor`) are not declared: GitBook keeps whatever it has.
 */
import { z } from "zod";
import { httpUrl, localized, text } from "../framework/fields";
import type { ApiSiteCustomization } from "../client";
import type { Props } from "../framework/resource";
import { liveSettings, settingsGroup } from "../framework/settings";
import { emojiText } from "./space";

const mustBe = (values: readonly string[]) => ({ error: `must be one of ${values.map((v) => JSON.stringify(v)).join(", ")}` });
const oneOf = <V extends string>(values: readonly [V, ...V[]]) => z.enum(values, mustBe(values));
const bool = () => z.boolean({ error: "must be a boolean" });

/** The spec's Color. */
const color = z
  .string({ error: "must be a string" })
  .regex(/^#(?:[0-9a-fA-F]{3}){1,2}$/, "must be a hex colour, #rgb or #rrggbb (e.g. #346ddb)")
  .describe("A hex colour, `#rgb` or `#rrggbb`.");

/** The spec's CustomizationThemedColor: one colour per theme. */
const themedColor = (what: string) =>
  z
    .object({ light: color.describe("The colour in light mode, `#rgb` or `#rrggbb`."), dark: color.describe("The colour in dark mode, `#rgb` or `#rrggbb`.") })
    .describe(`${what}: \`{ light, dark }\`, a hex colour for each theme, both required.`);

const url = httpUrl(2048).describe("An absolute http(s) URL, at most 2048 characters.");

/** The spec's CustomizationThemedURL. */
const themedUrl = (what: string) =>
  z
    .object({ light: url.describe("The image's URL in light mode (absolute http(s), at most 2048 characters)."), dark: url.describe("The image's URL in dark mode (absolute http(s), at most 2048 characters).") })
    .describe(`${what}: \`{ light, dark }\`, an image URL for each theme, both required.`);


/** The spec's ContentRef: where a link goes. */
const contentRef = (what: string) => {
  const ref = <K extends string, S extends z.ZodRawShape>(kind: K, describe: string, shape: S) =>
    z.object({ kind: z.literal(kind).describe(`\`"${kind}"\`: ${describe}.`), ...shape });
  const idOf = (thing: string) => z.string({ error: "must be a string" }).describe(`ID of the ${thing}.`);
  const inSpace = z.string({ error: "must be a string" }).optional().describe("ID of the space holding it; without it, the current space.");
  return z
    .discriminatedUnion(
      "kind",
      [
        ref("url", "a web address", { url: z.string({ error: "must be a string" }).describe("The address.") }),
        ref("page", "a page", { page: idOf("page"), space: inSpace }),
        ref("anchor", "an anchor in a page", { anchor: z.string({ error: "must be a string" }).describe("The anchor."), page: idOf("page").optional(), space: inSpace }),
        ref("space", "a space", { space: idOf("space") }),
        ref("collection", "a collection", { collection: idOf("collection") }),
        ref("file", "a file", { file: idOf("file"), space: inSpace }),
        ref("user", "a user", { user: idOf("user") }),
        ref("reusable-content", "reusable content", { reusableContent: idOf("reusable content"), space: inSpace }),
        ref("tag", "a tag", { tag: idOf("tag"), space: inSpace }),
        ref("openapi", "an OpenAPI specification", { spec: z.string({ error: "must be a string" }).describe("Slug of the OpenAPI specification.") }),
      ],
      { error: 'must be a link target with a `kind` of "url", "page", "anchor", "space", "collection", "file", "user", "reusable-content", "tag" or "openapi"' },
    )
    .describe(`${what}: GitBook's ContentRef, e.g. \`{ kind: "url", url: "https://acme.test" }\` or \`{ kind: "page", page: "<pageId>", space: "<spaceId>" }\`.`);
};

/** The spec's CustomizationContentLink. */
const contentLink = (what: string) =>
  z
    .object({
      title: text({ max: 64 }).describe("The link's text, at most 64 characters."),
      localizedTitle: localized(64, "link text").optional(),
      to: contentRef("Where the link goes"),
    })
    .describe(what);

const codeThemes = [
  "default-light", "default-dark", "monochrome-light", "monochrome-dark", "andromeeda", "aurora-x", "ayu-dark", "catppuccin-frappe", "catppuccin-latte",
  "catppuccin-macchiato", "catppuccin-mocha", "dark-plus", "dracula", "dracula-soft", "everforest-dark", "everforest-light", "github-dark",
  "github-dark-default", "github-dark-dimmed", "github-dark-high-contrast", "github-light", "github-light-default", "github-light-high-contrast",
  "gruvbox-dark-hard", "gruvbox-dark-medium", "gruvbox-dark-soft", "gruvbox-light-hard", "gruvbox-light-medium", "gruvbox-light-soft", "houston",
  "kanagawa-dragon", "kanagawa-lotus", "kanagawa-wave", "laserwave", "light-plus", "material-theme", "material-theme-darker", "material-theme-lighter",
  "material-theme-ocean", "material-theme-palenight", "min-dark", "min-light", "monokai", "night-owl", "nord", "one-dark-pro", "one-light", "plastic",
  "poimandres", "red", "rose-pine", "rose-pine-dawn", "rose-pine-moon", "slack-dark", "slack-ochin", "snazzy-light", "solarized-dark", "solarized-light",
  "synthwave-84", "tokyo-night", "vesper", "vitesse-black", "vitesse-dark", "vitesse-light",
] as const;
const codeTheme = (what: string) =>
  z
    .object({ light: oneOf(codeThemes).describe("The code theme in light mode."), dark: oneOf(codeThemes).describe("The code theme in dark mode.") })
    .describe(`${what}: \`{ light, dark }\`, one of GitBook's code themes (\`github-light\`, \`dracula\`, ...) for each theme.`);

const DEFAULT_FONTS = ["ABCFavorit", "Inter", "Roboto", "RobotoSlab", "OpenSans", "SourceSansPro", "Lato", "Ubuntu", "Raleway", "Merriweather", "Overpass", "NotoSans", "IBMPlexSerif", "Poppins", "FiraSans"] as const;
const MONOSPACE_FONTS = ["FiraCode", "IBMPlexMono", "JetBrainsMono", "SourceCodePro", "RobotoMono", "SpaceMono", "DMMono", "Inconsolata"] as const;

/** The spec's CustomizationFontDefinitionInput: a font of the organization's own. */
const customFont = z
  .object({
    id: z.string({ error: "must be a string" }).describe("ID of the custom font in GitBook."),
    custom: bool().describe("Always `true` for a custom font."),
    fontFamily: text({ min: 1, max: 50 }).describe("The font's family name, 1 to 50 characters."),
    fontFaces: z
      .array(
        z.object({
          weight: z.int({ error: "must be an integer" }).min(1, "must be 1 to 1000").max(1000, "must be 1 to 1000").describe("The face's weight, 1 to 1000."),
          sources: z
            .array(z.object({ url: url.describe("Where the font file is (absolute http(s))."), format: oneOf(["woff2", "woff"]).optional().describe("The file's format.") }))
            .min(1, "must list at least one source")
            .describe("The face's files, at least one."),
        }),
      )
      .min(1, "must list at least one face")
      .describe("The font's faces, at least one."),
  })
  .describe("A custom font: GitBook's CustomizationFontDefinitionInput.");

const font = (names: readonly [string, ...string[]], what: string) =>
  z.union([oneOf(names), customFont], { error: `must be one of ${names.join(", ")}, or a custom font definition` }).describe(`${what}: one of ${names.map((n) => `\`${n}\``).join(", ")}, or a custom font definition. Compared and written whole.`);

/** Every group and value of `styling` but the fonts (which a site space cannot override). */
const stylingShape = {
  theme: oneOf(["clean", "muted", "bold", "gradient"]).describe("The theme: `clean`, `muted`, `bold` or `gradient`."),
  primaryColor: themedColor("The primary colour, of links and UI text"),
  tint: z.object({ color: themedColor("The tint colour") }).describe("The tint, colouring the UI beyond links and buttons (header, sidebar, background): `{ color: { light, dark } }`."),
  infoColor: themedColor("The colour of informational messages"),
  successColor: themedColor("The colour of positive messages"),
  warningColor: themedColor("The colour of warnings"),
  dangerColor: themedColor("The colour of destructive actions and critical messages"),
  corners: oneOf(["straight", "rounded", "circular"]).describe("The corners: `straight`, `rounded` or `circular`."),
  depth: oneOf(["subtle", "flat"]).describe("The depth of elements: `subtle` or `flat`."),
  links: oneOf(["default", "accent"]).describe("The style of links: `default` or `accent`."),
  icons: oneOf(["regular", "solid", "duotone", "light", "thin"]).describe("The style of icons: `regular`, `solid`, `duotone`, `light` or `thin`."),
  codeTheme: settingsGroup({ default: codeTheme("The code blocks' theme"), openapi: codeTheme("The OpenAPI blocks' code theme") }, "The code themes, each managed on its own."),
  sidebar: settingsGroup(
    {
      background: oneOf(["default", "filled"]).describe("The sidebar's background: `default` or `filled`."),
      list: oneOf(["default", "pill", "line"]).describe("The sidebar's list style: `default`, `pill` or `line`."),
    },
    "The sidebar's styles, each managed on its own.",
  ),
  search: oneOf(["prominent", "subtle"]).describe("The search button's style: `prominent` or `subtle`."),
};

const favicon = z
  .union(
    [
      z.strictObject({ icon: themedUrl("The favicon image") }),
      z.strictObject({ emoji: emojiText().describe("The favicon emoji: one emoji, as the character or its codepoints in hex.") }),
      z.strictObject({}),
    ],
    { error: "must be { icon: { light, dark } }, { emoji } or {} (GitBook's default)" },
  )
  .describe("The favicon: `{ icon: { light, dark } }` (image URLs), `{ emoji }`, or `{}` for GitBook's default. Compared and written whole.");

const headerItem = z.object({
  title: z.string({ error: "must be a string" }).describe("The item's text."),
  localizedTitle: localized(1024, "item text").optional(),
  style: oneOf(["link", "button-primary", "button-secondary"]).optional().describe("The item's style: `link`, `button-primary` or `button-secondary`."),
  to: contentRef("Where the item goes").nullable().describe("Where the item goes (GitBook's ContentRef), or null for a menu of `links` only."),
  links: z.array(contentLink("A link of the item's menu.")).describe("The links of the item's menu (may be empty)."),
  condition: text({ max: 1024 }).optional().describe("An expression on visitor claims deciding who sees the item, at most 1024 characters."),
});

const footerGroup = z.object({
  title: z.string({ error: "must be a string" }).describe("The group's heading."),
  localizedTitle: localized(1024, "heading").optional(),
  links: z.array(contentLink("A link of the group.")).describe("The group's links."),
});

/** The settings a site space can override too (the PATCH body's fields, but `announcement` and the deprecated ones). */
const sharedSettings = {
  title: text({ min: 2, max: 128 }).describe("The site's title as visitors see it, 2 to 128 characters."),
  localizedTitle: localized(128, "title"),
  favicon,
  header: settingsGroup(
    {
      logo: themedUrl("The header logo"),
      primaryLink: contentRef("Where clicking the header's title or logo goes"),
      links: z.array(headerItem).describe("The header's items, in order: each `{ title, to, links }` (a link, or a menu of links), optionally styled as a button. Compared and written whole."),
    },
    "The header, each field managed on its own.",
  ),
  footer: settingsGroup(
    {
      logo: themedUrl("The footer logo"),
      groups: z.array(footerGroup).describe("The footer's groups of links, in order: each `{ title, links }`. Compared and written whole."),
      copyright: text({ max: 512 }).describe("The footer's copyright line, at most 512 characters."),
    },
    "The footer, each field managed on its own.",
  ),
  themes: settingsGroup(
    {
      default: oneOf(["light", "dark", "system"]).describe("The theme visitors get first: `light`, `dark` or `system`."),
      toggeable: bool().describe("Whether visitors can switch between light and dark (GitBook's spelling)."),
    },
    "Light and dark mode.",
  ),
  feedback: settingsGroup({ enabled: bool().describe("Whether pages ask visitors for feedback.") }, "Page feedback."),
  externalLinks: settingsGroup({ target: oneOf(["self", "blank"]).describe("Where external links open: `self` (the same tab) or `blank` (a new one).") }, "External links."),
  pagination: settingsGroup({ enabled: bool().describe("Whether pages show previous/next links.") }, "Pagination at the foot of pages."),
  trademark: settingsGroup({ enabled: bool().describe('Whether "Powered by GitBook" shows.') }, "GitBook's trademark."),
  privacyPolicy: settingsGroup({ url: url.describe("The privacy policy's URL (absolute http(s), at most 2048 characters).") }, "The privacy policy link."),
  socialPreview: settingsGroup({ url: url.describe("The social preview image's URL (absolute http(s), at most 2048 characters).") }, "The image shown when a page is shared."),
};

const STYLING = "The look: theme, colours, corners, fonts, icons, code themes, sidebar and search styles, each managed on its own.";

/** The settings SiteCustomization declares: every group and value of SiteCustomizationSettings but the deprecated ones. */
export const siteSettings = {
  ...sharedSettings,
  styling: settingsGroup(
    {
      ...stylingShape,
      font: font(DEFAULT_FONTS, "The text font"),
      headingFont: font(DEFAULT_FONTS, "The headings' font").nullable().describe("The headings' font: one of GitBook's fonts or a custom font definition, or null for the text font. Compared and written whole."),
      monospaceFont: font(MONOSPACE_FONTS, "The code font"),
    },
    STYLING,
  ),
  announcement: z
    .object({
      enabled: bool().describe("Whether the banner shows."),
      message: text({ min: 2, max: 128 }).describe("The banner's text, 2 to 128 characters."),
      localizedMessage: localized(128, "banner text").optional(),
      link: contentLink("A link at the end of the banner.").optional(),
      style: oneOf(["info", "warning", "danger", "success"]).describe("The banner's style: `info`, `warning`, `danger` or `success`."),
    })
    .describe("The announcement banner above every page: `{ enabled, message, style }` and an optional `link`. Compared and written whole."),
  ai: settingsGroup(
    {
      mode: oneOf(["none", "search", "assistant"]).describe("GitBook AI on the site: `none`, `search` (AI answers in search) or `assistant`."),
      greeting: text({ max: 256 }).describe("The assistant's greeting, at most 256 characters."),
      localizedGreeting: localized(128, "greeting"),
      suggestions: z.array(text({ min: 3, max: 64 }).describe("A suggested question, 3 to 64 characters.")).max(5, "must list at most 5 questions").describe("Questions the assistant suggests, at most 5."),
      instructions: text({ max: 10000 }).describe("Instructions for the assistant, at most 10000 characters."),
    },
    "GitBook AI, each field managed on its own.",
  ),
  advancedCustomization: settingsGroup({ enabled: bool().describe("Whether advanced customization is on.") }, "Advanced customization."),
  pageActions: settingsGroup(
    { items: z.array(oneOf(["assistant", "external-ai", "markdown", "mcp", "git", "pdf"])).describe("The actions pages offer, in order: `assistant`, `external-ai`, `markdown`, `mcp`, `git`, `pdf`.") },
    "The page actions menu.",
  ),
  socialAccounts: z
    .array(
      z.object({
        platform: oneOf(["twitter", "instagram", "facebook", "linkedin", "github", "discord", "slack", "youtube", "tiktok", "reddit", "bluesky", "mastodon", "threads", "medium"]).describe("The platform."),
        handle: text({ min: 1, max: 128 }).describe("The account's handle, 1 to 128 characters."),
        display: z.object({ footer: bool().describe("Whether the footer shows it."), header: bool().describe("Whether the header shows it.") }).describe("Where the account shows."),
      }),
    )
    .max(10, "must list at most 10 accounts")
    .describe("The organization's social accounts, at most 10. Compared and written whole."),
  insights: settingsGroup({ trackingCookie: bool().describe("Whether GitBook's insights set a tracking cookie.") }, "Site insights."),
};

/** The overrides SiteSpaceCustomization declares: what the PATCH body takes and can clear one by one. */
export const siteSpaceSettings = {
  ...sharedSettings,
  styling: settingsGroup(stylingShape, "The look of the site space: theme, colours, corners, icons, code themes, sidebar and search styles (fonts are the site's), each managed on its own."),
};

/** What both kinds read from GitBook's settings object: the declared settings (`live`), and when they last changed (`computed`). */
export function customizationView(settings: z.ZodObject) {
  return {
    live: (obj: ApiSiteCustomization, props: Props) => liveSettings(settings, obj, props),
    computed: (obj: ApiSiteCustomization): { updatedAt?: string } => (typeof obj.updatedAt === "string" ? { updatedAt: obj.updatedAt } : {}),
  };
}
