// File-system helpers shared by the capabilities that keep files in the data dir.

export { writeFileAtomic } from './atomic-write.js';
export {
  createPrivateFileSync,
  formatMode,
  privateDirMode,
  privateFileMode,
  restrictFileModeSync,
} from './private-modes.js';
