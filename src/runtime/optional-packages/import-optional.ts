import { createRequire } from "node:module";
import { ToolsiftError, type ToolsiftErrorCode } from "../../shared/errors/index.js";
import { type InstallContext, installCommand, type OptionalPackage } from "./install-command.js";
import { installLocation } from "./install-location.js";

const require = createRequire(import.meta.url);

/** The packages of `packages` that cannot be resolved from toolsift's folder (resolved, never loaded). */
export function missingPackages(packages: readonly OptionalPackage[]): OptionalPackage[] {
  return packages.filter((pkg) => {
    try {
      require.resolve(pkg.name);
      return false;
    } catch {
      return true;
    }
  });
}

/** "<what> needs the package openai, which is not installed" (no command, no final stop). */
export function missingPackagesProblem(what: string, missing: readonly OptionalPackage[]): string {
  const names = missing.map((pkg) => pkg.name);
  const needs =
    names.length === 1 ? `the package ${names[0]}, which is` : `the packages ${names.join(", ")}, which are`;
  return `${what} needs ${needs} not installed`;
}

/** The command that installs `packages` next to this toolsift (install-command.ts), for this process. */
export function installCommandFor(
  packages: readonly OptionalPackage[],
  context: InstallContext = { cwd: process.cwd(), args: process.argv.slice(2) },
): string {
  return installCommand(packages, installLocation(), context);
}

/** "<what> needs the package openai, which is not installed. Install it: <command>" */
export function missingPackagesMessage(what: string, missing: readonly OptionalPackage[]): string {
  return `${missingPackagesProblem(what, missing)}. Install ${missing.length === 1 ? "it" : "them"}: ${installCommandFor(missing)}`;
}

/** What `importNeeding` says and throws when a package is missing. */
export type ImportNeedingOptions = {
  /** Who needs them, the subject of the message (`Provider "openai"`). */
  what: string;
  packages: readonly OptionalPackage[];
  code: ToolsiftErrorCode;
};

/**
 * Runs `load` (an `import()` of a module that imports `packages`); when Node cannot find one of them, rejects
 * with a ToolsiftError naming the command that installs them (never a bare "Cannot find package"). Other
 * failures pass through unchanged.
 */
export async function importNeeding<T>(load: () => Promise<T>, options: ImportNeedingOptions): Promise<T> {
  try {
    return await load();
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    const message = error instanceof Error ? error.message : String(error);
    const missing = options.packages.filter((pkg) => message.includes(`'${pkg.name}'`));
    if ((code !== "ERR_MODULE_NOT_FOUND" && code !== "MODULE_NOT_FOUND") || missing.length === 0) throw error;
    throw new ToolsiftError(options.code, missingPackagesMessage(options.what, options.packages), {
      cause: error,
    });
  }
}
