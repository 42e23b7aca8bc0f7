import { lifecycleSuite } from "./scenarios";

lifecycleSuite("Team");
