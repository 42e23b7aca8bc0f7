/**
 * `address`: what a program declares of where a site publishes a resource (its Site's `basename` and
 * `proxy`, and a site space's section `path`), as an input of the kinds whose state holds something
 * GitBook builds on it: a share link's `url`, a publication's `publishedUrl`, a redirect rule's path
 * destination (sent as the published site's URL followed by the path), and the old-path rules of a
 * section or site space with `redirectOldPath` (they lead to its published URL).
 *
 * A resource's outputs are written by its own create, update and read alone (issue 42). Those kinds
 * are applied after the Site and section they name by `id` output, but the engine applies a resource
 * again only when its own inputs change: a new basename, written by the Site, would leave their URL
 * (or their rule) as it was. With what the program declares of the address among their inputs, filled
 * in by the program process (never by the program), a change there is a change of theirs: the plan
 * shows it, and their update, after the Site's and the section's, reads the URL the site now gives
 * them, and rewrites the rules that lead elsewhere.
 *
 * Only resources of the same program, named by their `id` output, are followed: a literal ID says
 * nothing of the resource declaring it. A custom hostname is the app's, as the site's other changes in
 * the app are: refresh reads it.
 */
import { z } from "zod";
import { field } from "../framework/fields";
import type { Props } from "../framework/resource";
import { resourcesOf } from "../framework/shown";

/** Each Site and SiteSection of the program: what it declares of the address (values or Outputs). */
const declaredAddress = new WeakMap<object, Props>();

const defined = (parts: Props): Props => Object.fromEntries(Object.entries(parts).filter(([, v]) => v !== undefined));

/** The Site's and the SiteSection's `inProgram` part: records what the resource declares of the address, for those naming it. */
export function declaresAddress(kind: "Site" | "SiteSection", args: Props): (resource: object) => void {
  const parts = kind === "Site" ? defined({ basename: args.basename, proxy: args.proxy }) : defined({ sectionPath: args.path });
  return (resource) => declaredAddress.set(resource, parts);
}

/** What the program declares of the address through the resource whose `id` output `ref` is; nothing for a literal ID. */
function through(ref: unknown): Props {
  const [r, ...more] = resourcesOf(ref);
  return r && more.length === 0 && (r as { id?: unknown }).id === ref ? (declaredAddress.get(r) ?? {}) : {};
}

/**
 * The `fromProgram` of a kind naming its site by `siteId` (and a site space's section by `sectionId`):
 * `address`, replacing any the program set. `when` limits it to the resources whose state depends on
 * it (a section's, only with `redirectOldPath`), so that others register no property more.
 */
export function addressOf(when: (args: Props) => boolean = () => true): (args: Props) => Props {
  return (args) => {
    const address = when(args) ? { ...through(args.siteId), ...through(args.sectionId) } : {};
    if (Object.keys(address).length > 0) return { address };
    return args.address === undefined ? {} : { address: undefined };
  };
}

export const addressField = () =>
  z
    .object({
      basename: z.string().optional().describe("The Site's declared `basename`."),
      proxy: z.string().optional().describe("The Site's declared `proxy`."),
      sectionPath: z.string().optional().describe("A site space's section's declared `path`."),
    })
    .optional()
    .describe(
      "Set by the program process, never by the program (a declared value is replaced): what the program declares of where the site publishes this resource, the `basename` and `proxy` of the Site `siteId` names by its `id` output (and a site space's section's `path`). A change there is a change of this resource too, which the plan shows, and which `up` applies after the Site's (and the section's), so that what this resource records or sends built on the site's URL is GitBook's when the run ends. Never sent to GitBook.",
    )
    // Converged by the kind's update (reading the object again, rewriting what leads elsewhere), never sent in its PATCH.
    .register(field, { change: "custom", fromProgram: true, import: false });
