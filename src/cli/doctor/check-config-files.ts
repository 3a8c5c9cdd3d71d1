import { statSync } from 'node:fs';
import type { ConfigFile } from '../../config/config-schema.js';
import {
  findSymlinkedProjectPath,
  projectConfigPath,
  readConfigFile,
} from '../../config/load-config.js';
import type { DoctorCheck } from './doctor-check.js';
import { findRuleProblems } from './find-rule-problems.js';

/** Group or other may read or write it: a config file holds permission rules and is private (README.md). */
const SHARED_MODE_BITS = 0o066;

export interface ConfigFilesCheck {
  checks: DoctorCheck[];
  /** The user file's contents when it is present and valid. */
  userFile: ConfigFile | undefined;
  /** The project file's contents when it is present and valid. */
  projectFile: ConfigFile | undefined;
}

/** The user config file (location, presence, validity, permissions) and the project file when there is one. */
export async function checkConfigFiles(
  userConfigFile: string,
  workspaceRoot: string | null,
): Promise<ConfigFilesCheck> {
  const checks: DoctorCheck[] = [];
  const user = await checkOneFile('config', userConfigFile, true);
  checks.push(user.check);
  let projectFile: ConfigFile | undefined;
  if (workspaceRoot !== null) {
    const linkWarning = await findSymlinkedProjectPath(workspaceRoot);
    if (linkWarning !== null) {
      // Refused as the audit and the agent refuse it: not read, so nothing of its target is shown.
      checks.push({
        id: 'project-config',
        status: 'warn',
        detail: linkWarning,
        hint: 'make .oy/config.json a regular file in the repository, or remove the link',
        data: { file: projectConfigPath(workspaceRoot), isSymlink: true },
      });
    } else {
      const project = await checkOneFile('project-config', projectConfigPath(workspaceRoot), false);
      if (project.check.status !== 'info') checks.push(project.check);
      projectFile = project.values;
    }
  }
  return { checks, userFile: user.values, projectFile };
}

async function checkOneFile(
  id: string,
  file: string,
  isPrivate: boolean,
): Promise<{ check: DoctorCheck; values: ConfigFile | undefined }> {
  let mode: number;
  try {
    mode = statSync(file).mode & 0o777;
  } catch {
    const detail = `${file} (not present; defaults apply)`;
    return {
      check: { id, status: 'info', detail, data: { file, exists: false } },
      values: undefined,
    };
  }
  const data = { file, exists: true, mode: `0${mode.toString(8)}` };
  let values: ConfigFile | undefined;
  try {
    values = await readConfigFile(file);
  } catch (error) {
    const hint = (error as { hint?: string }).hint;
    return {
      check: {
        id,
        status: 'fail',
        detail: (error as Error).message,
        ...(hint ? { hint } : {}),
        data: { ...data, isValid: false },
      },
      values: undefined,
    };
  }
  // The schema checks a rule's shape; the policy's own parser finds the rest (a pipe, a `..`).
  const ruleProblems = values === undefined ? [] : findRuleProblems(values);
  if (ruleProblems.length > 0) {
    return {
      check: {
        id,
        status: 'fail',
        detail: `${file}: ${ruleProblems.length} invalid permission rule(s):\n${ruleProblems.map((line) => `  ${line}`).join('\n')}`,
        hint: 'see README.md, "Permission rules", for their form; oy run and oy chat refuse to start until they are fixed',
        data: { ...data, isValid: false },
      },
      values: undefined,
    };
  }
  if (isPrivate && (mode & SHARED_MODE_BITS) !== 0) {
    return {
      check: {
        id,
        status: 'warn',
        detail: `${file} is valid but readable or writable by group/others (mode ${data.mode})`,
        hint: `chmod 600 ${file}`,
        data: { ...data, isValid: true },
      },
      values,
    };
  }
  return {
    check: {
      id,
      status: 'ok',
      detail: `${file} (valid, mode ${data.mode})`,
      data: { ...data, isValid: true },
    },
    values,
  };
}
