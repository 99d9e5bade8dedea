// bottleneck/light is Bottleneck without its Redis clustering (and the Lua scripts it
// bundles): the same local limiter API in a fraction of the functions bundle.
declare module "bottleneck/light" {
  import Bottleneck from "bottleneck";
  export default Bottleneck;
}
