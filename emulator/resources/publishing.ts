// Publishing: publishSite and unpublishSite, which take a site live and offline.
//
// Both answer with the site as it now is. The spec documents no refusal for either, so a site
// without content publishes (it goes live empty and shows content as it is added), and publishing a
// published site, or unpublishing an unpublished one, changes nothing. One alternative answer: when
// the organization's plan needs an upgrade first (`publishNeedsCheckout` on the organization record),
// publishSite answers 200 with a Stripe checkout session, `{type: "checkout", sessionId}`, and the
// site stays unpublished.
import { ok, type Router } from "../http";
import { getOrg, getSite, SITE, type Ctx } from "./resource";
import { siteView } from "./sites";

export function routes(r: Router<Ctx>): void {
  r.add("POST", `${SITE}/publish`, (c) => {
    const site = getSite(c);
    if (getOrg(c).publishNeedsCheckout) return ok({ type: "checkout", sessionId: `cs_test_${c.store.randomString(24)}` });
    site.published = true;
    return ok(siteView(c, site));
  });

  r.add("POST", `${SITE}/unpublish`, (c) => {
    const site = getSite(c);
    site.published = false;
    return ok(siteView(c, site));
  });
}
