// What a reply cost, as the chat stores it: the gateway reports 0 for a model it cannot price, which the chat
// keeps as unknown (null) so that it reads "unpriced", not "$0.00". Shared by a turn and a comparison.

/** USD as the gateway reported it; null when it did not, or when its 0 stands for a model without a price. */
export function replyCost(
  cost: number | undefined,
  model: string,
  isPriced: ((model: string) => boolean) | undefined,
): number | null {
  if (typeof cost !== 'number') return null;
  return cost === 0 && isPriced && !isPriced(model) ? null : cost;
}
