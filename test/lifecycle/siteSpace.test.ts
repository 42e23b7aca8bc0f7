import { lifecycleSuite } from "./scenarios";

lifecycleSuite("SiteSpace");
