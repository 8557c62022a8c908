import fs from 'node:fs/promises';
import path from 'node:path';
import { type ProgramExit, programHost } from '../program-host';
import { withScratchDir } from '../scratch-dirs';

/** What ffmpeg or ffprobe wrote to stdout, and how it ended (a non-zero exit is the caller's to judge). */
export interface MediaToolResult {
  stdout: Buffer;
  exit: ProgramExit;
  /** It ran past its time bound and was killed. */
  timedOut: boolean;
}

/**
 * Runs ffmpeg or ffprobe in the program host (never forked from the server's process) with a time
 * bound: SIGKILL past it. Throws only when the program could not run at all (not installed, host gone).
 */
export async function runMediaTool(
  program: 'ffmpeg' | 'ffprobe',
  args: string[],
  options: { input?: Uint8Array | Uint8Array[]; timeoutMs: number },
): Promise<MediaToolResult> {
  const run = programHost.run(program, args, { timeoutMs: options.timeoutMs });
  const out: Buffer[] = [];
  run.output.on('data', (chunk: Buffer) => out.push(chunk));
  const input =
    options.input === undefined ? [] : Array.isArray(options.input) ? options.input : [options.input];
  for (const part of input) run.write(part);
  run.end();
  const exit = await run.exit;
  if (exit.error) throw new Error(`${program} could not run: ${exit.error}`);
  return { stdout: Buffer.concat(out), exit, timedOut: exit.signal === 'SIGKILL' };
}

/**
 * Writes an upload to a private temporary file for ffmpeg to read, and always deletes it. A file, not
 * stdin: MP4 and QuickTime keep their index (moov) at the end as phones record them, which a reader of a
 * pipe cannot seek back to. The file has no extension, so only its content decides how it is read.
 */
export async function withInputFile<T>(bytes: Uint8Array, use: (file: string) => Promise<T>): Promise<T> {
  return withScratchDir('upload-', async (dir) => {
    const file = path.join(dir, 'upload');
    await fs.writeFile(file, bytes, { mode: 0o600 });
    return use(file);
  });
}
