/**
 * What an artifact says: its visible text, the placeholders it must not show (markers, not words:
 * "a to-do list" is prose), and the facts it must state in any markup or spacing.
 */
import { describe, expect, it } from 'vitest';
import { says } from '../../../src/manifest/meaning/facts.js';
import { firstPlaceholder } from '../../../src/manifest/meaning/placeholders.js';
import { visibleText } from '../../../src/manifest/meaning/visible-text.js';

describe('visible text', () => {
  it('is a page without its markup, scripts and styles, entities decoded, inline words kept whole', () => {
    const html = `<html><head><title>Aurora</title><style>.a{content:"TODO"}</style>
      <meta name="description" content="Small-batch coffee"></head>
      <body><h1><b>Aur</b>ora&nbsp;Coffee</h1><script>const x = "lorem";</script>
      <table><tr><td>TOTAL</td><td>30,882</td></tr></table><img src="a.png" alt="Beans"><!-- TODO --></body></html>`;
    expect(visibleText('index.html', html)).toBe(
      'Aurora Small-batch coffee Aurora\u00a0Coffee TOTAL 30,882 Beans',
    );
  });

  it('is the whole text of any other file', () => {
    expect(visibleText('report.md', '# Sales\n\n  TOTAL=1\n')).toBe('# Sales TOTAL=1');
  });
});

describe('placeholders', () => {
  it.each([
    ['Lorem ipsum dolor sit amet, consectetur.', 'lorem ipsum'],
    ['Our story: TODO', 'a TODO marker'],
    ['Opening hours: TBD', 'a TODO marker'],
    ['FIXME wrong price', 'a TODO marker'],
    ['todo: write this', 'a TODO marker'],
    ['Your text here', 'fill-in text'],
    ['Insert company logo here', 'fill-in text'],
    ['Add your tagline here', 'fill-in text'],
    ['Content goes here', 'fill-in text'],
    ['Company Name Here', 'fill-in text'],
    ['Placeholder text for the hero', 'placeholder text'],
    ['[placeholder] card', 'placeholder text'],
    ['Some dummy text.', 'placeholder text'],
    ['Welcome to {{ company_name }}!', 'a template leftover'],
    ['Call us at [insert phone number].', 'a template leftover'],
    ['Signed, [Your Name]', 'a template leftover'],
  ])('finds %j (%s)', (text, name) => {
    expect(firstPlaceholder(text)?.name).toBe(name);
  });

  it.each([
    'Fresh coffee is one less thing on your to-do list.',
    'A todo list app for teams',
    'Sign in to [your account](https://example.com) to order.',
    'Place your order here and we roast it tomorrow.',
    'Enter your email here to hear about new roasts.',
    'The placeholder attribute shows a hint.',
    'Ipsum is Latin for "itself".',
    'Totals: {"a": {"b": 1}}',
    'Toddlers do love hot chocolate.',
  ])('lets ordinary prose pass: %j', (text) => {
    expect(firstPlaceholder(text)).toBeNull();
  });

  it('names the first found, with the text around it', () => {
    expect(
      firstPlaceholder('Roasted to order. Lorem ipsum dolor sit amet, consectetur adipiscing elit.'),
    ).toEqual({
      name: 'lorem ipsum',
      excerpt: 'Roasted to order. Lorem ipsum dolor sit…',
    });
  });
});

describe('facts', () => {
  it('are found in any case, spacing and quote style, as words of their own', () => {
    expect(says('AURORA  COFFEE\u00a0roasters', 'Aurora Coffee Roasters')).toBe(true);
    expect(says('Roasted to order – we’re proud', "we're proud")).toBe(true);
    expect(says('ships within 48 hours', '48 hours')).toBe(true);
    expect(says('ships within 148 hours', '48 hours')).toBe(false);
    expect(says('a farmstead', 'farm')).toBe(false);
    expect(says('mail hello@aurora-roasters.example.', 'hello@aurora-roasters.example')).toBe(true);
  });
});
