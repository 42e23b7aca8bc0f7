import { lifecycleSuite } from "./scenarios";

lifecycleSuite("Collection");
