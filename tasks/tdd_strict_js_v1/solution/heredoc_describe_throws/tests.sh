cat > pages.test.mjs <<'EOF'
import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { parsePages as pages } from './pages.mjs';

const expectPages = (spec, want) => assert.deepStrictEqual(pages(spec), want);

describe('parsePages', () => {
  it('takes single pages and ranges', () => expectPages('1-3,5', [1, 2, 3, 5]));
  it('ignores spaces around items and hyphens', () => {
    expectPages(' 2 , 4 - 6 ', [2, 4, 5, 6]);
  });
  it('sorts and drops duplicates', () => {
    assert.deepEqual(pages('12,1-3,2'), [1, 2, 3, 12]);
  });
  it('selects nothing for a blank spec', () => {
    assert.equal(pages('   ').length, 0);
    assert.deepEqual(pages(''), []);
  });
  it('rejects an empty item and a half range', () => {
    assert.throws(() => pages('1,,2'), RangeError);
    assert.throws(() => pages('1-'), RangeError);
  });
  it('rejects a descending range', () => {
    const descending = () => pages('3-1');
    assert.throws(descending, /range/);
  });
  it('rejects what is not digits', async () => {
    await assert.rejects(async () => pages('x'), RangeError);
    assert.throws(() => pages('2.5'), { name: 'RangeError' });
  });
});
EOF