import { execFile } from 'node:child_process';

/** Runs a program with its own time bound (SIGKILL past it), so nothing outlives a killed engine child long. */
export function runProgram(
  file: string,
  args: readonly string[],
  options: { timeoutMs?: number; input?: string } = {},
): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      file,
      args,
      { timeout: options.timeoutMs ?? 20_000, killSignal: 'SIGKILL', maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error)
          reject(new Error(`${file} failed: ${error.message}${stderr ? ` (${stderr.slice(0, 300)})` : ''}`));
        else resolve({ stdout, stderr });
      },
    );
    if (options.input !== undefined) child.stdin?.end(options.input);
  });
}
