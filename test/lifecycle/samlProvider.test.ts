import { lifecycleSuite } from "./scenarios";

lifecycleSuite("SamlProvider");
