import { lifecycleSuite } from "./scenarios";

lifecycleSuite("SiteSection");
