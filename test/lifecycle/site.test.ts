import { lifecycleSuite } from "./scenarios";

lifecycleSuite("Site");
