import { afterAll, describe, expect, it } from 'vitest';
import { ProgramHost } from './program-host';

const host = new ProgramHost();
afterAll(() => host.stop());

async function outputOf(run: ReturnType<ProgramHost['run']>): Promise<string> {
  const chunks: Buffer[] = [];
  run.output.on('data', (chunk: Buffer) => chunks.push(chunk));
  await run.exit;
  return Buffer.concat(chunks).toString();
}

describe('ProgramHost', () => {
  it('runs a program in the host: input in, output out, exit code', async () => {
    const run = host.run('cat', []);
    run.write(Buffer.from('hello '));
    // A write larger than a piece goes over in pieces, in order.
    const large = Buffer.alloc(700 * 1024, 'x');
    run.write(large);
    run.end();
    const output = await outputOf(run);
    expect(output.length).toBe(6 + large.length);
    expect(output.startsWith('hello xxx')).toBe(true);
    expect(await run.exit).toMatchObject({ code: 0, signal: null });
  });

  it('reports a failing program with its exit code and stderr, and one that cannot start', async () => {
    const failing = host.run('sh', ['-c', 'echo broken >&2; exit 3']);
    failing.end();
    expect(await failing.exit).toMatchObject({ code: 3, stderr: 'broken\n' });
    const missing = host.run('no-such-program-parla', []);
    expect((await missing.exit).error).toBeTruthy();
  });

  it('kills a program past its time bound, and on request', async () => {
    const slow = host.run('sleep', ['10'], { timeoutMs: 100 });
    expect(await slow.exit).toMatchObject({ signal: 'SIGKILL' });
    const killed = host.run('sleep', ['10']);
    killed.kill();
    expect(await killed.exit).toMatchObject({ signal: 'SIGKILL' });
  });

  it('warm runs of the same arguments work one after another', async () => {
    for (let i = 0; i < 3; i += 1) {
      const run = host.run('cat', [], { warm: true });
      run.write(Buffer.from(`run ${i}`));
      run.end();
      expect(await outputOf(run)).toBe(`run ${i}`);
    }
  });

  it('a host that dies fails what ran there, and the next run starts another', async () => {
    const running = host.run('sleep', ['10']);
    host.stop();
    expect((await running.exit).error).toBe('the program host stopped');
    const next = host.run('echo', ['again']);
    next.end();
    expect(await outputOf(next)).toBe('again\n');
  });
});
