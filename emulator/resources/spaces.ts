// Spaces: the organization's containers of documentation (seeded, or created here), where they sit in
// the content tree (a collection, or the top level), and the trash a deleted space waits in.
import { bool, created, deleted, fail, invalid, LIMITS, list, notFound, nullable, obj, ok, oneOf, str, validate, type Router } from "../http";
import { DEFAULT_LEVELS, slugify, SPACE_EDIT_MODES, type PageRecord, type SpaceRecord } from "../store";
import { collectionRef, moveTarget } from "./collections";
import { apiUrl, APP, compact, getOrg, now, ORG, type Ctx, type Env } from "./resource";

/** The spec's `TranslationLanguage`. */
export const TRANSLATION_LANGUAGES = [
  "en", "fr", "de", "es", "it", "pt", "pt-br", "ru", "ja", "zh", "zh-tw", "yue", "ko", "ar", "hi", "nl", "pl", "tr", "sv", "no",
  "da", "fi", "el", "cs", "hu", "ro", "th", "vi", "id", "ms", "he", "uk", "sk", "bg", "hr", "lt", "lv", "et", "sl",
] as const;

/** How long GitBook keeps a deleted space restorable. */
const TRASH_DAYS = 7;

const SPACE = "/v1/spaces/:space";

export function spaceView(e: Env, s: SpaceRecord) {
  return compact({
    object: "space",
    id: s.id,
    title: s.title,
    emoji: s.emoji,
    visibility: s.visibility,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
    editMode: s.editMode ?? "live",
    mergeRules: { type: "inherit" },
    urls: compact({ location: apiUrl(e, `/spaces/${s.id}`), app: `${APP}/s/${s.id}/`, icon: s.icon }),
    organization: s.orgId,
    parent: s.parentId,
    language: s.language,
    revision: s.revision,
    defaultLevel: s.defaultLevel === undefined ? "inherit" : s.defaultLevel,
    comments: 0,
    changeRequests: 0,
    changeRequestsOpen: 0,
    changeRequestsDraft: 0,
    permissions: {
      view: true,
      access: true,
      admin: true,
      viewInviteLinks: true,
      edit: true,
      triggerGitSync: true,
      comment: true,
      merge: true,
      review: true,
      installIntegration: true,
    },
  });
}

/** GitBook's default layout of a document page (the spec requires every option). */
const PAGE_LAYOUT = {
  width: "default",
  cover: true,
  coverSize: "hero",
  coverMask: "none",
  title: true,
  description: true,
  tableOfContents: true,
  outline: true,
  pagination: true,
  metadata: true,
  tags: true,
  actions: true,
  anchors: true,
};

/** A page as listPages shows it: a document page (the spec's RevisionPageDocument), with its child pages. */
function pageView(space: SpaceRecord, p: PageRecord, parentPath: string): Record<string, unknown> {
  const slug = slugify(p.title);
  const path = parentPath ? `${parentPath}/${slug}` : slug;
  return compact({
    id: p.id,
    title: p.title,
    kind: "sheet",
    type: "document",
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
    markdown: "",
    urls: { app: `${APP}/s/${space.id}/${path}` },
    slug,
    path,
    pages: (p.pages ?? []).map((child) => pageView(space, child, path)),
    layout: PAGE_LAYOUT,
    tags: [],
  });
}

/** A space the API shows: a trashed one answers 404 until it is restored. */
function getSpace(c: Ctx): SpaceRecord {
  const s = c.store.spaces.get(c.params.space!);
  return s && !s.deletedAt ? s : notFound("space", c.params.space!);
}

/** Emoji and icon are alternatives: a PATCH sets one of them (the other may be sent as null), never both. */
function setLook(space: SpaceRecord, emoji: string | null | undefined, icon: string | null | undefined): void {
  if (emoji != null && icon != null) invalid("icon", "cannot be set together with emoji: a space shows one or the other");
  if (emoji !== undefined) space.emoji = emoji ?? "";
  if (icon === null) delete space.icon;
  if (emoji != null) delete space.icon;
  if (icon != null) {
    space.icon = icon;
    space.emoji = "";
  }
}

export function routes(r: Router<Ctx>): void {
  r.add("GET", `${ORG}/spaces`, (c) => {
    const org = getOrg(c);
    return list(
      c.query,
      [...c.store.spaces.values()].filter((s) => s.orgId === org.id && !s.deletedAt),
      (s) => spaceView(c, s),
    );
  });

  // The spaces directly in a collection (the spec does not say whether those of collections below it
  // are listed: they are not here), trashed ones left out as in every listing.
  r.add("GET", "/v1/collections/:collection/spaces", (c) => {
    const col = c.store.collections.get(c.params.collection!) ?? notFound("collection", c.params.collection!);
    return list(
      c.query,
      [...c.store.spaces.values()].filter((s) => s.parentId === col.id && !s.deletedAt),
      (s) => spaceView(c, s),
    );
  });

  // CreateSpace takes no icon and no default level: those need a PATCH. A template or a computed source
  // only decide the first content, which the emulator does not model; without `empty: true` ("a
  // completely empty space (no page in it)", the spec's alternative) the space starts with one page,
  // undated as GitBook leaves a page nobody has edited.
  r.add("POST", `${ORG}/spaces`, (c) => {
    const org = getOrg(c);
    const b = validate(c.body, {
      title: str(LIMITS.spaceTitle),
      emoji: str(LIMITS.emoji),
      parent: str(),
      language: oneOf(TRANSLATION_LANGUAGES),
      editMode: oneOf(SPACE_EDIT_MODES),
      template: obj(),
      computedSource: obj(),
      empty: bool(),
    });
    const parent = b.parent === undefined ? undefined : collectionRef(c, org.id, b.parent, "parent");
    const base = c.store.newId("spc");
    const space: SpaceRecord = {
      ...base,
      orgId: org.id,
      title: b.title ?? "Untitled",
      emoji: b.emoji ?? "",
      visibility: parent ? "in-collection" : "private",
      updatedAt: base.createdAt,
      revision: `rev_${c.store.randomString(10)}`,
      editMode: b.editMode ?? "live",
      defaultLevel: "inherit",
    };
    if (parent) space.parentId = parent.id;
    if (b.language) space.language = b.language;
    if (b.empty !== true) space.pages = [{ id: `page_${space.id}_1`, title: "Untitled" }];
    c.store.spaces.set(space.id, space);
    return created(spaceView(c, space));
  });

  r.add("GET", SPACE, (c) => ok(spaceView(c, getSpace(c))));

  // listPages: the current revision's page tree. `metadata` and `computed` change nothing here.
  r.add("GET", `${SPACE}/content/pages`, (c) => {
    const space = getSpace(c);
    return ok({ pages: (space.pages ?? []).map((p) => pageView(space, p, "")) });
  });

  r.add("PATCH", SPACE, (c) => {
    const space = getSpace(c);
    const b = validate(c.body, {
      title: str(LIMITS.spaceTitle),
      emoji: nullable(str(LIMITS.emoji)),
      icon: nullable(str(LIMITS.spaceIcon)),
      language: oneOf(TRANSLATION_LANGUAGES),
      editMode: oneOf(SPACE_EDIT_MODES),
      defaultLevel: nullable(oneOf(DEFAULT_LEVELS)),
      mergeRules: obj(),
    });
    setLook(space, b.emoji, b.icon);
    if (b.title !== undefined) space.title = b.title;
    if (b.language !== undefined) space.language = b.language;
    if (b.editMode !== undefined) space.editMode = b.editMode;
    if (b.defaultLevel !== undefined) space.defaultLevel = b.defaultLevel;
    space.updatedAt = now();
    return ok(spaceView(c, space));
  });

  // The PATCH cannot move a space: this does.
  r.add("POST", `${SPACE}/move`, (c) => {
    const space = getSpace(c);
    const target = moveTarget(c, space.orgId, space.parentId);
    if (target === undefined) delete space.parentId;
    else space.parentId = target;
    return ok(spaceView(c, space));
  });

  // To the trash (see Store.trashSpace): 205, or 204 when the space is missing or already there.
  r.add("DELETE", SPACE, (c) => deleted(c.store.trashSpace(c.params.space!)));

  r.add("POST", `${SPACE}/restore`, (c) => {
    const space = c.store.spaces.get(c.params.space!) ?? notFound("space", c.params.space!);
    if (!space.deletedAt) fail(400, `space "${space.id}" is not deleted`);
    if (Date.now() - Date.parse(space.deletedAt) > TRASH_DAYS * 86_400_000) notFound("space", space.id);
    delete space.deletedAt;
    return ok(spaceView(c, space));
  });
}
