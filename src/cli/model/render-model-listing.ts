import { neutralizeControl } from '../../shared/terminal/neutralize-control.js';
import type { Colors } from '../terminal.js';
import type { ModelListing } from './build-model-listing.js';
import { describeModelFacts } from './describe-model-facts.js';

/**
 * The listing as text for a person: default, credentials, catalogue, discovered models. Model ids and
 * errors can come from a provider's answer, so every value is shown inertly.
 */
export function renderModelListing(listing: ModelListing, colors: Colors): string {
  const plain = (text: string) => neutralizeControl(text, { lineBreaks: 'show' });
  const lines: string[] = [];
  if (listing.default) {
    const eol = listing.default.deprecatedUntil
      ? colors.yellow(` (deprecated: end of life ${listing.default.deprecatedUntil})`)
      : '';
    lines.push(
      `default model: ${colors.bold(plain(listing.default.id))} (from ${plain(listing.default.source)})${eol}`,
      `  ${describeModelFacts(listing.default.facts)}${listing.default.factsFromConfig ? ' (config "models")' : ''}`,
    );
  } else if (listing.defaultError) {
    lines.push(`default model: ${colors.red('invalid')}: ${plain(listing.defaultError)}`);
  } else {
    lines.push('default model: none (audits run offline; set one with oy model <id>)');
  }
  const credentials = listing.credentials.map(
    (entry) => `${entry.provider} (${entry.found.join(', ')})`,
  );
  lines.push(`credentials present: ${credentials.length > 0 ? credentials.join('; ') : 'none'}`);

  for (const section of listing.catalogue) {
    lines.push('', `${section.provider} (${section.source}):`);
    if (section.error) lines.push(`  ${colors.yellow(plain(section.error))}`);
    for (const model of section.models) {
      const eol = model.deprecatedUntil
        ? colors.yellow(`  deprecated: end of life ${model.deprecatedUntil}`)
        : '';
      lines.push(`  ${plain(model.id)}${eol}`);
    }
  }
  for (const found of listing.discovered) {
    lines.push('', `${found.provider} at ${plain(found.endpoint)}:`);
    if (found.error)
      lines.push(`  ${colors.yellow(`could not list models: ${plain(found.error)}`)}`);
    else if (found.models.length === 0) lines.push('  (no models listed)');
    for (const id of found.models) lines.push(`  ${plain(id)}`);
  }
  return lines.join('\n') + '\n';
}
