/** `{{instance.key}}`: filled from instance.json's values, a missing key one line naming task, key and instance. */
import { describe, expect, it } from 'vitest';
import { fillStrings, fillText, fillTyped } from '../../../src/tasks/variants/template.js';
import { UsageError } from '../../../src/util/errors.js';

const scope = {
  taskId: 'debug_python_v1',
  instanceId: '0123abcd',
  values: { fix: { sed: 's/a/b/' }, total: 42, flat: 'x' },
};

describe('templating', () => {
  it('fills dotted paths, flat keys and numbers; other text is left as it is', () => {
    expect(
      fillText(
        "sed -i '{{instance.fix.sed}}' f.py; echo {{ instance.total }} {{instance.flat}} {{x}}",
        scope,
      ),
    ).toBe("sed -i 's/a/b/' f.py; echo 42 x {{x}}");
  });

  it('fills every string at any depth of a manifest part, and leaves other values alone', () => {
    expect(
      fillStrings([{ calls: [{ arguments: { command: '{{instance.flat}}', n: 3, on: true } }] }], scope),
    ).toEqual([{ calls: [{ arguments: { command: 'x', n: 3, on: true } }] }]);
  });

  it('refuses a missing key in one line naming the task, the key and the instance', () => {
    const run = () => fillText('{{instance.fix.awk}}', scope);
    expect(run).toThrow(UsageError);
    expect(run).toThrow(
      /^debug_python_v1: \{\{instance\.fix\.awk\}\}: instance 0123abcd has no key "fix\.awk"/,
    );
  });

  it('refuses a table where text belongs', () => {
    expect(() => fillText('{{instance.fix}}', scope)).toThrow(/has no text or number at "fix"/);
  });

  it('fills a typed data file: a lone placeholder keeps a number a number, keys are filled as text', () => {
    expect(
      fillTyped(
        {
          price: '{{instance.total}}',
          note: 'total {{instance.total}}',
          '{{instance.flat}}': ['{{instance.flat}}', 3],
        },
        scope,
      ),
    ).toEqual({ price: 42, note: 'total 42', x: ['x', 3] });
    expect(() => fillTyped({ a: '{{instance.nope}}' }, { ...scope, source: 'its variants pools' })).toThrow(
      /instance 0123abcd has no key "nope" \(its variants pools\)/,
    );
  });
});
