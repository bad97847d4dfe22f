/** Where the running toolsift is installed: it decides the command that adds a package next to it. */
export type InstallLocation =
  /** npm's exec cache: `npx toolsift …` run where no project installs toolsift. */
  | { kind: "npx" }
  /** `npm install -g toolsift`. */
  | { kind: "global" }
  /** `<root>/node_modules/toolsift`, in a project with a package.json. */
  | { kind: "project"; root: string }
  /** A clone of the repository (its devDependencies hold every optional package). */
  | { kind: "checkout"; root: string };

/** A package toolsift loads only for one feature, at the version it is tested with. */
export type OptionalPackage = { name: string; version: string };

/** What the command is worded for: the working directory and the CLI's arguments (after `toolsift`). */
export type InstallContext = { cwd: string; args: readonly string[] };

/**
 * The one shell command that makes `packages` loadable by this toolsift: `npm install` in the project (with a
 * `cd` when it is not the working directory), `npm install -g` beside a global install, `npx -p` with the
 * same arguments for a toolsift that npx fetched, `npm install` in a checkout.
 */
export function installCommand(
  packages: readonly OptionalPackage[],
  location: InstallLocation,
  context: InstallContext,
): string {
  const specs = packages.map((pkg) => `${pkg.name}@${pkg.version}`);
  switch (location.kind) {
    case "npx":
      return ["npx", "-p", "toolsift", ...specs.flatMap((spec) => ["-p", spec]), "toolsift", ...context.args]
        .map(shellWord)
        .join(" ");
    case "global":
      return `npm install -g ${specs.join(" ")}`;
    case "project":
      return `${inFolder(location.root, context.cwd)}npm install ${specs.join(" ")}`;
    case "checkout":
      return `${inFolder(location.root, context.cwd)}npm install`;
  }
}

function inFolder(root: string, cwd: string): string {
  return stripSlash(root) === stripSlash(cwd) ? "" : `cd ${shellWord(root)} && `;
}

function stripSlash(path: string): string {
  return path.length > 1 ? path.replace(/[\\/]+$/u, "") : path;
}

/** A word as a POSIX shell reads it back: unchanged when plain, else in single quotes. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/u.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}
