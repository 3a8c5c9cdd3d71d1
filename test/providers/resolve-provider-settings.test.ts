import { describe, expect, it } from 'vitest';
import {
  listCredentialPresence,
  type CredentialPresenceOptions,
} from '../../src/providers/list-credential-presence.js';
import { parseModelId } from '../../src/providers/model-id/parse-model-id.js';
import { resolveProviderSettings } from '../../src/providers/resolve-provider-settings.js';
import { ConfigError } from '../../src/shared/errors.js';

const resolve = (id: string, env: Record<string, string>) =>
  resolveProviderSettings(parseModelId(id), env);

describe('resolveProviderSettings', () => {
  it('reads the Anthropic key and optional base URL', () => {
    expect(resolve('claude-haiku-4-5', { ANTHROPIC_API_KEY: 'k-a' })).toEqual({
      client: 'anthropic',
      settings: { apiKey: 'k-a' },
    });
    expect(
      resolve('anthropic::x', {
        ANTHROPIC_API_KEY: 'k-a',
        ANTHROPIC_BASE_URL: 'http://127.0.0.1:9/',
      }),
    ).toEqual({ client: 'anthropic', settings: { apiKey: 'k-a', baseURL: 'http://127.0.0.1:9' } });
  });

  it('defaults the OpenAI base URL and honours OPENAI_BASE_URL', () => {
    expect(resolve('gpt-4o', { OPENAI_API_KEY: 'k-o' })).toEqual({
      client: 'openai',
      settings: { apiKey: 'k-o', baseURL: 'https://api.openai.com/v1' },
    });
    expect(
      resolve('o3', { OPENAI_API_KEY: 'k-o', OPENAI_BASE_URL: 'http://127.0.0.1:1234/v1' })
        .settings,
    ).toMatchObject({ baseURL: 'http://127.0.0.1:1234/v1' });
  });

  it('points local-<port> at loopback with the default or given key', () => {
    expect(resolve('local-8080::m', {})).toEqual({
      client: 'openai',
      settings: { apiKey: 'oy-local', baseURL: 'http://127.0.0.1:8080/v1' },
    });
    expect(resolve('local-8080::m', { LOCAL_API_KEY: 'lk' }).settings).toMatchObject({
      apiKey: 'lk',
    });
    // OPENAI_BASE_URL belongs to openai:: only.
    expect(
      resolve('local-9::m', { OPENAI_BASE_URL: 'http://elsewhere/v1' }).settings,
    ).toMatchObject({
      baseURL: 'http://127.0.0.1:9/v1',
    });
  });

  it('needs no key for Ollama', () => {
    expect(resolve('ollama::llama3.1:8b', {})).toEqual({
      client: 'openai',
      settings: { apiKey: 'ollama', baseURL: 'http://127.0.0.1:11434/v1' },
    });
  });

  it('uses the OpenRouter endpoint with its key', () => {
    expect(resolve('openrouter::a/b', { OPENROUTER_API_KEY: 'k-r' })).toEqual({
      client: 'openai',
      settings: { apiKey: 'k-r', baseURL: 'https://openrouter.ai/api/v1' },
    });
  });

  it('picks the Bedrock region BEDROCK_REGION > AWS_REGION > AWS_DEFAULT_REGION', () => {
    const all = {
      BEDROCK_REGION: 'eu-west-1',
      AWS_REGION: 'us-east-1',
      AWS_DEFAULT_REGION: 'ap-south-1',
    };
    expect(resolve('bedrock::m', all).settings).toEqual({ region: 'eu-west-1' });
    expect(resolve('bedrock::m', { ...all, BEDROCK_REGION: '' }).settings).toEqual({
      region: 'us-east-1',
    });
    expect(resolve('bedrock::m', { AWS_DEFAULT_REGION: 'ap-south-1' }).settings).toEqual({
      region: 'ap-south-1',
    });
    expect(
      resolve('bedrock::m', {
        AWS_REGION: 'us-west-2',
        AWS_ENDPOINT_URL_BEDROCK_RUNTIME: 'http://127.0.0.1:4000',
        AWS_PROFILE: 'dev',
      }).settings,
    ).toEqual({ region: 'us-west-2', endpoint: 'http://127.0.0.1:4000', profile: 'dev' });
  });

  it('passes a timeout through', () => {
    const settings = resolveProviderSettings(parseModelId('ollama::x'), {}, { timeoutMs: 5000 });
    expect(settings.settings.timeoutMs).toBe(5000);
  });

  it.each([
    ['claude-haiku-4-5', {}, 'ANTHROPIC_API_KEY'],
    ['claude-haiku-4-5', { ANTHROPIC_API_KEY: '  ' }, 'ANTHROPIC_API_KEY'],
    ['gpt-4o', { ANTHROPIC_API_KEY: 'x' }, 'OPENAI_API_KEY'],
    ['openrouter::a/b', { OPENAI_API_KEY: 'x' }, 'OPENROUTER_API_KEY'],
    ['bedrock::m', { AWS_PROFILE: 'dev' }, 'BEDROCK_REGION'],
  ])('%s without its credential is a config error naming %s', (id, env, variable) => {
    let caught: unknown;
    try {
      resolve(id, env as Record<string, string>);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const error = caught as ConfigError;
    expect(error.exitCode).toBe(2);
    expect(`${error.message} ${error.hint}`).toContain(variable);
    expect(error.hint).toContain('oy doctor');
  });

  it('rejects a base URL that is not http(s) without echoing it', () => {
    const env = { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: 'ftp://user:s3cret@host' };
    expect(() => resolve('claude-x', env)).toThrow(/ANTHROPIC_BASE_URL must be an http/);
    try {
      resolve('claude-x', { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: 'not a url s3cret' });
    } catch (error) {
      expect((error as Error).message).toContain('ANTHROPIC_BASE_URL');
      expect(`${(error as Error).message}${(error as ConfigError).hint}`).not.toContain('s3cret');
    }
  });
});

describe('listCredentialPresence', () => {
  const noFiles: CredentialPresenceOptions = { fileExists: () => false };
  const byProvider = (env: Record<string, string>, options: CredentialPresenceOptions = noFiles) =>
    Object.fromEntries(
      listCredentialPresence(env, options).map((entry) => [entry.provider, entry]),
    );

  it('names the variables that are set and never their values', () => {
    const env = { ANTHROPIC_API_KEY: 'sk-ant-secret', OPENAI_BASE_URL: 'http://x', HOME: '/h' };
    const result = byProvider(env);
    expect(result.anthropic).toMatchObject({ isPresent: true, found: ['ANTHROPIC_API_KEY'] });
    expect(result.openai).toMatchObject({ isPresent: false, found: ['OPENAI_BASE_URL'] });
    expect(result.openrouter?.isPresent).toBe(false);
    expect(JSON.stringify(listCredentialPresence(env, noFiles))).not.toContain('sk-ant-secret');
  });

  it('sees Bedrock credentials in AWS variables', () => {
    const result = byProvider({
      AWS_ACCESS_KEY_ID: 'AKIA',
      AWS_SECRET_ACCESS_KEY: 's',
      AWS_REGION: 'us-east-1',
    });
    expect(result.bedrock).toMatchObject({
      isPresent: true,
      found: ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_REGION'],
    });
    expect(byProvider({ AWS_PROFILE: 'dev' }).bedrock?.isPresent).toBe(true);
    expect(byProvider({ AWS_REGION: 'us-east-1' }).bedrock?.isPresent).toBe(false);
  });

  it('sees Bedrock credentials in ~/.aws files by existence only', () => {
    const checked: string[] = [];
    const fileExists = (file: string) => {
      checked.push(file);
      return file === '/home/u/.aws/credentials';
    };
    const result = byProvider({ HOME: '/home/u' }, { fileExists });
    expect(result.bedrock).toMatchObject({ isPresent: true, found: ['~/.aws/credentials'] });
    expect(checked).toEqual(['/home/u/.aws/config', '/home/u/.aws/credentials']);
    const custom = byProvider(
      { HOME: '/home/u', AWS_CONFIG_FILE: '/etc/aws.conf' },
      { fileExists: (f) => f === '/etc/aws.conf' },
    );
    expect(custom.bedrock?.found).toEqual(['/etc/aws.conf']);
  });

  it('needs nothing for local servers and Ollama', () => {
    const result = byProvider({});
    expect(result.local?.isPresent).toBe(true);
    expect(result.ollama?.isPresent).toBe(true);
    expect(byProvider({ LOCAL_API_KEY: 'x' }).local?.found).toEqual(['LOCAL_API_KEY']);
  });
});
