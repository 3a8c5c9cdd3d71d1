import { BASE64_COMMENT_BLOB_SCANNER } from './scanners/base64-comment-blobs.js';
import type { FileScanner } from './scanners/file-scanner.js';
import { INVISIBLE_CHARACTER_SCANNER } from './scanners/invisible-characters.js';
import { WORKFLOW_RISK_SCANNER } from './scanners/workflow-risks.js';

/** Rule families that read a whole file their own way. */
export const FILE_SCANNERS: readonly FileScanner[] = [
  INVISIBLE_CHARACTER_SCANNER,
  BASE64_COMMENT_BLOB_SCANNER,
  WORKFLOW_RISK_SCANNER,
];
