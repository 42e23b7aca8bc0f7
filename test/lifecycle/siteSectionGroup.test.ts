import { lifecycleSuite } from "./scenarios";

lifecycleSuite("SiteSectionGroup");
