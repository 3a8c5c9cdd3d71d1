import { modelFactsFor } from '../../providers/model-facts/model-facts-for.js';
import type { Price } from '../../providers/pricing/price-table.js';
import { addToTotals, type UsageTotals } from '../../providers/pricing/usage-totals.js';
import { EMPTY_USAGE, type ModelRef, type Usage } from '../../providers/types.js';
import type { AgentEvent } from '../events.js';
import type { AgentState } from './agent-state.js';
import { costOf } from '../../providers/pricing/cost-of.js';

/** Totals for this run and, through the state, for the whole session; prices from the table. */
export class UsageMeter {
  readonly #price: Price | undefined;
  #run: UsageTotals = { ...EMPTY_USAGE, costUsd: 0 };

  constructor(
    ref: ModelRef,
    private readonly state: AgentState,
  ) {
    this.#price = modelFactsFor(ref).price;
  }

  get isPriced(): boolean {
    return this.#price !== undefined;
  }

  /** This run only (what `done` reports and `--max-cost` caps). */
  get run(): UsageTotals {
    return this.#run;
  }

  /** Adds one call and returns the `usage` event that reports it. */
  add(usage: Usage): Extract<AgentEvent, { type: 'usage' }> {
    this.#run = addToTotals(this.#run, usage, this.#price);
    const session = addToTotals(
      { ...this.state.usage, costUsd: this.state.costUsd },
      usage,
      this.#price,
    );
    const { costUsd: totalCostUsd, ...totalUsage } = session;
    this.state.usage = totalUsage;
    this.state.costUsd = totalCostUsd;
    return {
      type: 'usage',
      usage,
      costUsd: this.#price === undefined ? null : costOf(usage, this.#price),
      totalUsage,
      totalCostUsd,
    };
  }

  runUsage(): Usage {
    const { costUsd: _cost, ...usage } = this.#run;
    return usage;
  }
}
