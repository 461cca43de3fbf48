export { checkOutputPaths, openOutputFile, outputErrorSentence, OutputPathError, type NamedFile } from './output-paths.js';
export { snapshotFiles, describeFileChange, type FileSnapshot } from './file-snapshot.js';
export { readableByOthersWarning, plainHttpWarning } from './exposure-warnings.js';
