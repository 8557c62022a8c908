import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('loadConfig', () => {
  it('runs on embedded defaults with an empty environment', () => {
    const config = loadConfig({}, []);
    expect(config).toMatchObject({
      env: 'development',
      role: 'all',
      host: '127.0.0.1',
      port: 8080,
      publicUrl: 'http://localhost:8080',
      dataDir: path.resolve('data'),
      database: { kind: 'pglite', dir: path.resolve('data', 'db') },
    });
  });

  it('uses PostgreSQL when DATABASE_URL is set', () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://u@h:5432/db', DATABASE_POOL_SIZE: '4' }, [
      '--role=api',
    ]);
    expect(config.database).toEqual({ kind: 'postgres', url: 'postgres://u@h:5432/db', poolSize: 4 });
    expect(config.role).toBe('api');
  });

  it('lists every problem at once', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'eighty', LOG_LEVEL: 'loud', DATABASE_URL: 'mysql://x', JOB_CONCURRENCY: '0' }, [
        '--role=boss',
        '--fast',
      ]);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems.map((p) => p.split(':')[0])).toEqual(
      expect.arrayContaining([
        'PORT',
        'LOG_LEVEL',
        'DATABASE_URL',
        'JOB_CONCURRENCY',
        '--role',
        'unknown argument "--fast" (expected --role=api|worker|all or --migrate-only)'.split(':')[0],
      ]),
    );
    expect(problems).toHaveLength(6);
    expect((error as Error).message).toMatch(/^Invalid configuration:\n {2}- /);
  });

  it('takes the embedding model on LLM_EMBEDDING_URL, else on LLM_OPENAI_URL, and refuses it with neither', () => {
    expect(loadConfig({}, []).llm.embedding).toBeUndefined();
    const own = loadConfig(
      { LLM_EMBEDDING_MODEL: 'nomic-embed-text', LLM_EMBEDDING_URL: 'http://127.0.0.1:11434/v1/' },
      [],
    ).llm.embedding;
    expect(own).toEqual({
      url: 'http://127.0.0.1:11434/v1',
      apiKey: undefined,
      model: 'nomic-embed-text',
      minSimilarity: 0.3,
    });
    const shared = loadConfig(
      {
        LLM_OPENAI_URL: 'http://127.0.0.1:8000/v1',
        LLM_OPENAI_MODEL: 'qwen2.5:7b',
        LLM_OPENAI_API_KEY: 'sk-1',
        LLM_EMBEDDING_MODEL: 'bge-m3',
      },
      [],
    ).llm.embedding;
    expect(shared).toMatchObject({ url: 'http://127.0.0.1:8000/v1', apiKey: 'sk-1', model: 'bge-m3' });
    expect(() => loadConfig({ LLM_EMBEDDING_MODEL: 'bge-m3' }, [])).toThrow(/LLM_EMBEDDING_MODEL needs/);
    expect(() => loadConfig({ LLM_EMBEDDING_URL: 'http://127.0.0.1:1/v1' }, [])).toThrow(
      /LLM_EMBEDDING_URL needs LLM_EMBEDDING_MODEL/,
    );
  });

  it("takes dubbing's translation servers, the chat model falling back to the agents' server", () => {
    expect(loadConfig({}, []).translation).toEqual({
      prefer: 'offline',
      libretranslate: undefined,
      openai: undefined,
      timeoutMs: 120_000,
    });
    const own = loadConfig(
      {
        TRANSLATION_PREFER: 'server',
        TRANSLATION_LIBRETRANSLATE_URL: 'http://127.0.0.1:5000/',
        TRANSLATION_LIBRETRANSLATE_API_KEY: 'lt-key',
        TRANSLATION_OPENAI_URL: 'http://127.0.0.1:8000/v1/',
        TRANSLATION_OPENAI_API_KEY: 'sk-t',
        TRANSLATION_OPENAI_MODEL: 'qwen2.5:7b',
        LLM_OPENAI_URL: 'http://127.0.0.1:9000/v1',
        LLM_OPENAI_MODEL: 'other',
        TRANSLATION_TIMEOUT_MS: '5000',
      },
      [],
    ).translation;
    expect(own).toEqual({
      prefer: 'server',
      libretranslate: { url: 'http://127.0.0.1:5000', apiKey: 'lt-key' },
      openai: { url: 'http://127.0.0.1:8000/v1', apiKey: 'sk-t', model: 'qwen2.5:7b' },
      timeoutMs: 5000,
    });
    const shared = loadConfig(
      { LLM_OPENAI_URL: 'http://127.0.0.1:9000/v1', LLM_OPENAI_MODEL: 'llama3', LLM_OPENAI_API_KEY: 'sk-l' },
      [],
    ).translation.openai;
    expect(shared).toEqual({ url: 'http://127.0.0.1:9000/v1', apiKey: 'sk-l', model: 'llama3' });
    expect(() => loadConfig({ TRANSLATION_OPENAI_URL: 'http://127.0.0.1:1/v1' }, [])).toThrow(
      /TRANSLATION_OPENAI_URL needs TRANSLATION_OPENAI_MODEL/,
    );
    expect(() => loadConfig({ TRANSLATION_PREFER: 'cloud' }, [])).toThrow(/TRANSLATION_PREFER/);
  });

  it('makes cookies Secure when PUBLIC_URL is https, whatever the case of its scheme', () => {
    expect(loadConfig({}, []).secureCookies).toBe(false);
    expect(loadConfig({ PUBLIC_URL: 'http://parla.example' }, []).secureCookies).toBe(false);
    expect(loadConfig({ PUBLIC_URL: 'https://parla.example/' }, []).secureCookies).toBe(true);
    expect(loadConfig({ PUBLIC_URL: 'HTTPS://Parla.example' }, []).secureCookies).toBe(true);
  });

  it('requires PUBLIC_URL in production, where mailed links must name the server', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' }, [])).toThrow(/PUBLIC_URL: required in production/);
    const config = loadConfig({ NODE_ENV: 'production', PUBLIC_URL: 'https://parla.example/' }, []);
    expect(config).toMatchObject({ publicUrl: 'https://parla.example', publicUrlGuessed: false });
    expect(loadConfig({}, [])).toMatchObject({ publicUrl: 'http://localhost:8080', publicUrlGuessed: true });
  });

  it('trusts no proxy by default, or the ones TRUST_PROXY names', () => {
    expect(loadConfig({}, []).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }, []).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8' }, []).trustProxy).toEqual([
      'loopback',
      '10.0.0.0/8',
    ]);
  });

  it('refuses separate api/worker roles on the single-process embedded database', () => {
    expect(() => loadConfig({}, ['--role=worker'])).toThrow(/set DATABASE_URL/);
  });
});
