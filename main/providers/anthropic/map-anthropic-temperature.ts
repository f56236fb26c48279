// Our temperature range is 0–2 (spec 2.1), Anthropic's is 0–1. Clamped, not scaled: values up to 1 keep the
// meaning callers tuned them for (0.7 stays 0.7); everything above 1 becomes Anthropic's most random setting.
// docs/decisions/003-anthropic-temperature.md has the reasoning.

export function mapAnthropicTemperature(temperature: number): number {
  return Math.min(Math.max(temperature, 0), 1);
}
