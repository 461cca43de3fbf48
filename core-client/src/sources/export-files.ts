import { isFolder, keycloakFolderFiles } from './keycloak/keycloak-export.js';

/**
 * The files an export is read from: the file itself, or a Keycloak export folder's files in the order they are read
 * (a folder without any stays itself, for its reader to refuse). What a run snapshots and fingerprints.
 */
export async function exportFilesOf(path: string): Promise<string[]> {
  if (!(await isFolder(path))) return [path];
  const files = await keycloakFolderFiles(path).catch(() => []);
  return files.length === 0 ? [path] : files;
}
