import { lifecycleSuite } from "./scenarios";

lifecycleSuite("SiteExternalLink");
