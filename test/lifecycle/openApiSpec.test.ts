import { lifecycleSuite } from "./scenarios";

lifecycleSuite("OpenApiSpec");
