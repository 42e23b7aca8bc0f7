import { lifecycleSuite } from "./scenarios";

lifecycleSuite("ShareLink");
