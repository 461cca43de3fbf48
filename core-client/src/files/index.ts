/** Output files written safely (never over an input, never through a link, owner-only), and warnings about files. */
export { checkOutputPaths, openOutputFile, writeFully, outputErrorSentence, OutputPathError, type NamedFile } from './output-paths.js';
export { snapshotFiles, describeFileChange, type FileSnapshot } from './file-snapshot.js';
export { readableByOthersWarning, plainHttpWarning } from './exposure-warnings.js';
export { fileRoles, fileRoleWords, type FileRole } from './file-roles.js';
