import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { addKeyRuleOptions, keyRulesChangeFrom, type KeyRuleOptions } from './key-rule-options.js';

function changeOf(...args: string[]) {
  const command = addKeyRuleOptions(new Command('update')).exitOverride();
  command.parse(args, { from: 'user' });
  return keyRulesChangeFrom(command.opts<KeyRuleOptions>());
}

describe('the MCP hub options of keys create and update', () => {
  it('turn --allow-metrics into the metrics right, --no-allow-metrics into none, and leave it alone without either', () => {
    expect(changeOf('--allow-metrics')).toEqual({ metrics: true });
    expect(changeOf('--no-allow-metrics')).toEqual({ metrics: false });
    expect(changeOf('--rpm', '5')).not.toHaveProperty('metrics');
  });

  it('turn --allow-mcp into a list, --no-mcp into null, and leave the rule alone without either', () => {
    expect(changeOf('--allow-mcp', 'fs, everything__echo')).toEqual({ allowed_mcp: ['fs', 'everything__echo'] });
    expect(changeOf('--no-mcp')).toEqual({ allowed_mcp: null });
    expect(changeOf('--rpm', '5')).toEqual({ requests_per_minute: 5 });
    expect(() => changeOf('--allow-mcp', '*', '--no-mcp')).toThrow('Use either --allow-mcp or --no-mcp.');
  });
});
