import { describe, expect, it } from 'vitest';
import { parseModelId } from '../../../src/providers/model-id/parse-model-id.js';
import { costOf } from '../../../src/providers/pricing/cost-of.js';
import { listPricedModelIds } from '../../../src/providers/pricing/list-priced-model-ids.js';
import { priceFor } from '../../../src/providers/pricing/price-for.js';
import { PRICE_ENTRIES } from '../../../src/providers/pricing/price-table.js';
import {
  addToTotals,
  addUsage,
  EMPTY_TOTALS,
} from '../../../src/providers/pricing/usage-totals.js';
import prices from '../../../src/providers/pricing/prices.json' with { type: 'json' };
import type { Usage } from '../../../src/providers/types.js';

const usage = (input: number, output: number, cacheRead = 0, cacheWrite = 0): Usage => ({
  inputTokens: input,
  outputTokens: output,
  cacheReadTokens: cacheRead,
  cacheWriteTokens: cacheWrite,
});

describe('the price table', () => {
  it('states its source and date', () => {
    expect(prices._comment).toMatch(/platform\.claude\.com/);
    expect(prices._comment).toMatch(/openai\.com/);
    expect(prices._comment).toMatch(/\d{4}-\d{2}-\d{2}/);
  });

  it('has well-formed entries with non-negative prices and no model listed twice', () => {
    const seen = new Set<string>();
    for (const entry of PRICE_ENTRIES) {
      for (const field of ['input', 'output', 'cacheWrite', 'cacheRead'] as const) {
        expect(
          Number.isFinite(entry[field]) && entry[field] >= 0,
          `${entry.models[0]} ${field}`,
        ).toBe(true);
      }
      expect(entry.output).toBeGreaterThanOrEqual(entry.input);
      expect(entry.cacheRead).toBeLessThanOrEqual(entry.input);
      expect(entry.models.length).toBeGreaterThan(0);
      for (const provider of entry.providers) {
        for (const model of entry.models) {
          const key = `${provider}::${model}`;
          expect(seen.has(key), key).toBe(false);
          seen.add(key);
        }
      }
    }
  });

  it('lists catalogue ids that parse and are priced by their own entry', () => {
    for (const entry of PRICE_ENTRIES) {
      for (const id of entry.catalogue) {
        const price = priceFor(parseModelId(id));
        expect(price, id).toEqual({
          input: entry.input,
          output: entry.output,
          cacheWrite: entry.cacheWrite,
          cacheRead: entry.cacheRead,
        });
      }
    }
  });
});

describe('priceFor', () => {
  it.each([
    ['anthropic::claude-opus-4-5', 5, 25],
    ['anthropic::claude-opus-4-5-20251101', 5, 25],
    ['anthropic::claude-opus-4-6', 5, 25],
    ['anthropic::claude-opus-4-1-20250805', 15, 75],
    ['anthropic::claude-opus-4-0', 15, 75],
    ['anthropic::claude-opus-4-20250514', 15, 75],
    ['anthropic::claude-sonnet-4-5', 3, 15],
    ['anthropic::claude-sonnet-4-5-20250929', 3, 15],
    ['anthropic::claude-sonnet-4-20250514', 3, 15],
    ['anthropic::claude-3-7-sonnet-latest', 3, 15],
    ['anthropic::claude-haiku-4-5', 1, 5],
    ['anthropic::claude-3-5-haiku-20241022', 0.8, 4],
    ['anthropic::claude-3-haiku-20240307', 0.25, 1.25],
    ['anthropic::claude-sonnet-5', 2, 10],
    ['anthropic::claude-opus-5-5', 4, 20],
    ['bedrock::anthropic.claude-sonnet-4-5-20250929-v1:0', 3, 15],
    ['bedrock::us.anthropic.claude-sonnet-4-5-20250929-v1:0', 3, 15],
    ['bedrock::global.anthropic.claude-haiku-4-5-20251001-v1:0', 1, 5],
    ['bedrock::eu.anthropic.claude-opus-4-1-20250805-v1:0', 15, 75],
    ['bedrock::global.anthropic.claude-opus-4-6-v1', 5, 25],
    [
      'bedrock::arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.anthropic.claude-sonnet-4-20250514-v1:0',
      3,
      15,
    ],
    ['openai::gpt-4o', 2.5, 10],
    ['openai::gpt-4o-2024-08-06', 2.5, 10],
    ['openai::gpt-4o-mini', 0.15, 0.6],
    ['openai::gpt-4o-mini-2024-07-18', 0.15, 0.6],
    ['openai::gpt-4.1', 2, 8],
    ['openai::gpt-4.1-mini', 0.4, 1.6],
    ['openai::gpt-4.1-nano-2025-04-14', 0.1, 0.4],
    ['openai::o3', 2, 8],
    ['openai::o3-mini', 1.1, 4.4],
    ['openai::o4-mini', 1.1, 4.4],
    ['openai::o1', 15, 60],
  ])('%s costs $%s in, $%s out', (id, input, output) => {
    expect(priceFor(parseModelId(id))).toMatchObject({ input, output });
  });

  it.each([
    'anthropic::claude-sonnet-4-7',
    'anthropic::claude-fable-5-2',
    'anthropic::my-proxy-model',
    'openai::o3-pro',
    'openai::gpt-4o-audio-preview',
    'openai::claude-sonnet-4-5',
    'bedrock::amazon.nova-pro-v1:0',
    'local-8080::gpt-4o',
    'ollama::llama3.1:8b',
    'openrouter::openai/gpt-4o',
  ])('does not guess a price for %s', (id) => {
    expect(priceFor(parseModelId(id))).toBeUndefined();
  });

  it('gives cache prices for Claude', () => {
    expect(priceFor(parseModelId('claude-sonnet-4-5'))).toEqual({
      input: 3,
      output: 15,
      cacheWrite: 3.75,
      cacheRead: 0.3,
    });
  });
});

describe('costOf', () => {
  const price = { input: 3, output: 15, cacheWrite: 3.75, cacheRead: 0.3 };

  it('prices each kind of token per million', () => {
    expect(costOf(usage(1_000_000, 0), price)).toBeCloseTo(3, 10);
    expect(costOf(usage(0, 1_000_000), price)).toBeCloseTo(15, 10);
    expect(costOf(usage(0, 0, 1_000_000), price)).toBeCloseTo(0.3, 10);
    expect(costOf(usage(0, 0, 0, 1_000_000), price)).toBeCloseTo(3.75, 10);
    expect(costOf(usage(1200, 340, 5000, 800), price)).toBeCloseTo(
      (1200 * 3 + 340 * 15 + 5000 * 0.3 + 800 * 3.75) / 1e6,
      12,
    );
  });

  it('is zero for no tokens', () => {
    expect(costOf(usage(0, 0), price)).toBe(0);
  });
});

describe('usage totals', () => {
  it('adds usage field by field', () => {
    expect(addUsage(usage(1, 2, 3, 4), usage(10, 20, 30, 40))).toEqual(usage(11, 22, 33, 44));
  });

  it('sums tokens and cost over calls', () => {
    const price = priceFor(parseModelId('claude-haiku-4-5'));
    let totals = addToTotals(EMPTY_TOTALS, usage(1_000_000, 0), price);
    totals = addToTotals(totals, usage(0, 1_000_000), price);
    expect(totals).toMatchObject({ inputTokens: 1_000_000, outputTokens: 1_000_000 });
    expect(totals.costUsd).toBeCloseTo(6, 10);
  });

  it('keeps counting tokens but makes the cost unknown once a price is unknown', () => {
    const price = priceFor(parseModelId('claude-haiku-4-5'));
    let totals = addToTotals(EMPTY_TOTALS, usage(100, 10), price);
    totals = addToTotals(totals, usage(5, 5), undefined);
    totals = addToTotals(totals, usage(100, 10), price);
    expect(totals).toEqual({ ...usage(205, 25), costUsd: null });
  });
});

describe('listPricedModelIds', () => {
  it('lists OpenAI and Bedrock catalogue ids', () => {
    const openai = listPricedModelIds('openai');
    expect(openai).toEqual(
      expect.arrayContaining([
        'openai::gpt-4o',
        'openai::gpt-4o-mini',
        'openai::gpt-4.1',
        'openai::o3',
        'openai::o4-mini',
      ]),
    );
    const bedrock = listPricedModelIds('bedrock');
    expect(bedrock).toContain('bedrock::us.anthropic.claude-sonnet-4-5-20250929-v1:0');
    expect(bedrock.every((id) => id.startsWith('bedrock::'))).toBe(true);
    expect(listPricedModelIds('ollama')).toEqual([]);
  });
});
