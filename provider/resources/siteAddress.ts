/**
 * `siteAddress`: what a program declares of a site's address (its Site's `basename` and `proxy`), as
 * an input of the kinds whose outputs hold a URL GitBook builds on it: a share link's `url`, a
 * publication's `publishedUrl`.
 *
 * A resource's outputs are written by its own create, update and read alone (issue 42). Those kinds
 * are applied after their Site (they name it by its `id` output), but the engine applies a resource
 * again only when its own inputs change: a new basename, written by the Site, would leave their URL
 * as it was in state. With the Site's declared address among their inputs, filled in by the program
 * process (never by the program), a change there is a change of theirs: the plan shows it beside the
 * Site's, and their update, after the Site's, reads the URL the site now has (it sends nothing else).
 *
 * Only a Site of the same program, named by its `id` output, is followed: a literal site ID says
 * nothing of the Site declaring it. A custom hostname, set up in the app, is the app's, as the site's
 * other changes in the app are: refresh reads it.
 */
import { z } from "zod";
import { field } from "../framework/fields";
import type { Props } from "../framework/resource";
import { resourcesOf } from "../framework/shown";

export const ADDRESS_FIELDS = ["basename", "proxy"] as const;

/** Each Site of the program: what it declares of its address (values or Outputs). */
const declaredAddress = new WeakMap<object, Props>();

/** The Site's `inProgram`: records what it declares of its address, for the resources naming it. */
export function declaresAddress(_name: string, args: Props): (site: object) => void {
  const address: Props = {};
  for (const f of ADDRESS_FIELDS) if (args[f] !== undefined) address[f] = args[f];
  return (site) => declaredAddress.set(site, address);
}

/** The `fromProgram` of a kind whose `siteId` names a Site: its address, when the Site is this program's. */
export function addressOf(args: Props): Props {
  const [site, ...more] = resourcesOf(args.siteId);
  const address = site && more.length === 0 && (site as { id?: unknown }).id === args.siteId ? declaredAddress.get(site) : undefined;
  if (address && Object.keys(address).length > 0) return { siteAddress: address };
  return args.siteAddress === undefined ? {} : { siteAddress: undefined };
}

export const siteAddressField = () =>
  z
    .object({
      basename: z.string().optional().describe("The Site's declared `basename`."),
      proxy: z.string().optional().describe("The Site's declared `proxy`."),
    })
    .optional()
    .describe(
      "Set by the program process, never by the program (a declared value is replaced): the `basename` and `proxy` that the Site named by `siteId` (its `id` output) declares. A change of either is a change of this resource too, which the plan shows, and which `up` applies after the Site's, reading the URL the site then has, so that the URL in state is GitBook's. Never sent to GitBook.",
    )
    // Converged by reading the object again in the kind's update, never sent in its PATCH.
    .register(field, { change: "custom", import: false });
