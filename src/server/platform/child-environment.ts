/**
 * What a helper process the server starts (the document reader, the embedded database's creation) is given of
 * the server's environment: where programs and temporary files are, and the locale. Never the server's own
 * settings: its keys, passwords and addresses stay with the server.
 */
const PASSED = ['PATH', 'HOME', 'TMPDIR', 'TEMP', 'TMP', 'LANG', 'LC_ALL', 'NODE_ENV'] as const;

export function childEnvironment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const name of PASSED) if (process.env[name] !== undefined) env[name] = process.env[name];
  return env;
}
