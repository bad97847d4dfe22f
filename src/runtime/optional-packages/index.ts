export {
  importNeeding,
  installCommandFor,
  missingPackages,
  missingPackagesMessage,
  missingPackagesProblem,
} from "./import-optional.js";
export {
  type InstallContext,
  type InstallLocation,
  installCommand,
  type OptionalPackage,
} from "./install-command.js";
export { installLocation } from "./install-location.js";
