/** "@scope/name/sub/path" -> "@scope/name", "name/sub" -> "name". */
export const packageName = (specifier: string) => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');

type Manifest = { dependencies?: Record<string, string> };

/**
 * The package's dependencies must be exactly the packages dist/ imports, at run time or in its declarations (a
 * consumer's type check needs those too), each at the version the repository pins: a consumer installs what the
 * SDK was built and tested with, and nothing more. Throws naming every difference.
 */
export function checkDependencies(sdk: Manifest, root: Manifest, imported: Iterable<string>): void {
  const declared = sdk.dependencies ?? {};
  const needed = new Set([...imported].map(packageName));
  const problems = [
    ...[...needed].filter((name) => !(name in declared)).map((name) => `${name} is imported but not a dependency`),
    ...Object.keys(declared).filter((name) => !needed.has(name)).map((name) => `${name} is a dependency but never imported`),
    ...Object.entries(declared)
      .filter(([name, version]) => root.dependencies?.[name] !== version)
      .map(([name, version]) => `${name}@${version}: the repository pins ${root.dependencies?.[name] ?? 'no version'}`),
  ];
  if (problems.length > 0) throw new Error(`client-sdk/package.json dependencies:\n  ${problems.join('\n  ')}`);
}
