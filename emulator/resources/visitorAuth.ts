// Visitor authentication (the spec's "publishing auth") of a site: which backend authenticates
// visitors, the URLs they are sent to, and the private key their JWTs are signed with.
//
// Every site has these settings: the first read makes them (custom backend, a fresh key), so a GET
// never answers 404 for an existing site. PATCH requires `backend` (the spec's oneOf of the two
// backends); `fallbackURL` and `logoutURL` absent leave the value, null unsets it. Regenerate replaces
// the private key and answers the settings.
import { nullable, oneOf, ok, required, str, validate, type Router } from "../http";
import { VISITOR_AUTH_BACKENDS, type PublishingAuthRecord } from "../store";
import { compact, getSite, patchOptional, SITE, type Ctx } from "./resource";

const AUTH = `${SITE}/publishing/auth`;

// The spec gives these URLs `format: uri` and no length limit.
const URL_LIMIT = { max: Number.MAX_SAFE_INTEGER, uri: true };

function authOf(c: Ctx): PublishingAuthRecord {
  const site = getSite(c);
  let rec = c.store.publishingAuths.get(site.id);
  if (!rec) {
    const { seq, createdAt } = c.store.newId("auth");
    rec = { id: site.id, seq, createdAt, backend: "custom", privateKey: newKey(c) };
    c.store.publishingAuths.set(site.id, rec);
  }
  return rec;
}

const newKey = (c: Ctx) => `va_${c.store.randomString(40)}`;

function authView(a: PublishingAuthRecord) {
  return compact({
    object: "publishing-auth",
    backend: a.backend,
    privateKey: a.privateKey,
    fallbackURL: a.fallbackURL,
    logoutURL: a.logoutURL,
    integration: a.integration,
  });
}

export function routes(r: Router<Ctx>): void {
  r.add("GET", AUTH, (c) => ok(authView(authOf(c))));

  r.add("PATCH", AUTH, (c) => {
    const auth = authOf(c);
    const b = validate(c.body, {
      backend: required(oneOf(VISITOR_AUTH_BACKENDS)),
      fallbackURL: nullable(str(URL_LIMIT)),
      logoutURL: nullable(str(URL_LIMIT)),
    });
    auth.backend = b.backend;
    patchOptional(auth, "fallbackURL", b.fallbackURL);
    patchOptional(auth, "logoutURL", b.logoutURL);
    return ok(authView(auth));
  });

  r.add("POST", `${AUTH}/regenerate`, (c) => {
    const auth = authOf(c);
    auth.privateKey = newKey(c);
    return ok(authView(auth));
  });
}
