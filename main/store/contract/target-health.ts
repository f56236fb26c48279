// A cooled-down target's state as both engines' target_health table holds it (docs/decisions/030-cooldowns.md).
// A healthy target has no row. Times are Unix milliseconds.

export interface TargetHealthRow {
  /** `<provider>/<model>`. */
  model: string;
  provider: string;
  state: 'cooling' | 'trial';
  /** Cooling: when the cooldown ends. Trial: when the claim of the one trial lapses. */
  until: number;
  /** The cooldown a failed trial gets (it doubles up to the cap). */
  next_cooldown_ms: number;
  updated_at: number;
}
