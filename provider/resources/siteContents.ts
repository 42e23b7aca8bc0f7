/**
 * What this process itself knows a site section shows: learnt from the answer to the section's POST
 * (which lists the site space it was created with) and kept up to date by the SiteSpaces this process
 * adds to it.
 *
 * A SiteSpace refuses to show a space its section already shows. Finding that out by listing costs a
 * listing of every site space of the site per SiteSpace created (each write clears the client's list
 * cache), which at 1000 sections was ~125 extra requests of up to 2000 items each in a converge. But a
 * section created moments ago in this deployment holds exactly what this process put there, so the
 * check needs no request. Anything less certain (a section from an earlier run, adopted, or whose
 * content this process may have lost track of after a failed write) is not known here, and the
 * SiteSpace lists as before.
 *
 * Knowledge is per client (one per API URL and token, dropped when tests reset clients after changing
 * the emulator behind the provider's back) and lives as long as the provider host process: one
 * deployment.
 */
import type { GitbookClient } from "../client";

/** spaceId -> ID of the site space showing it; undefined while this process's POST for it is in flight. */
export type SectionContents = Map<string, string | undefined>;

const known = new WeakMap<GitbookClient, Map<string, SectionContents>>();

const key = (org: string, site: string, section: string) => `${org}\u0000${site}\u0000${section}`;

function sectionsOf(client: GitbookClient): Map<string, SectionContents> {
  let m = known.get(client);
  if (!m) known.set(client, (m = new Map()));
  return m;
}

/** Records a section this process just created, with the site spaces the API said it holds. */
export function learnSection(
  client: GitbookClient,
  org: string,
  site: string,
  section: string,
  siteSpaces: readonly { id: string; space: { id: string } }[] | undefined,
): void {
  // An answer without the list tells us nothing certain.
  if (!siteSpaces) return;
  sectionsOf(client).set(key(org, site, section), new Map(siteSpaces.map((ss) => [ss.space.id, ss.id])));
}

/** The section's contents if this process knows them for certain, else undefined (list instead). */
export function knownContents(client: GitbookClient, org: string, site: string, section: string): SectionContents | undefined {
  return sectionsOf(client).get(key(org, site, section));
}

/** After anything that may have changed the section in a way this process did not see through. */
export function forgetSection(client: GitbookClient, org: string, site: string, section: string | undefined): void {
  if (section !== undefined) sectionsOf(client).delete(key(org, site, section));
}
