import { programHost } from '../../../platform/program-host';

/**
 * Runs a program with its own time bound (SIGKILL past it), in the engine child's program host: a fork
 * of the engine child itself would stall it (and the health pings it answers) for ~5–10 ms per call.
 */
export async function runProgram(
  file: string,
  args: readonly string[],
  options: { timeoutMs?: number; input?: string } = {},
): Promise<{ stdout: string; stderr: string }> {
  const run = programHost.run(file, [...args], { timeoutMs: options.timeoutMs ?? 20_000 });
  const out: Buffer[] = [];
  run.output.on('data', (chunk: Buffer) => out.push(chunk));
  if (options.input !== undefined) run.write(Buffer.from(options.input));
  run.end();
  const exit = await run.exit;
  const stderr = exit.stderr;
  if (exit.error || exit.code !== 0) {
    const why = exit.error ?? (exit.signal ? `killed (${exit.signal})` : `exit code ${exit.code}`);
    throw new Error(`${file} failed: ${why}${stderr ? ` (${stderr.slice(0, 300)})` : ''}`);
  }
  return { stdout: Buffer.concat(out).toString(), stderr };
}
