/**
 * The series colours of every chart: the report pages (radar SVG, PNG) and the dashboard (served to it as
 * /static/palette.css) both take them from here, so model 1 has the same colour everywhere. Okabe–Ito,
 * safe for the common colour-vision deficiencies; the dark set is reordered for contrast on a dark page.
 */
export const SERIES_LIGHT = [
  '#0072b2',
  '#d55e00',
  '#009e73',
  '#cc79a7',
  '#e69f00',
  '#56b4e9',
  '#7a6a00',
  '#555555',
] as const;

export const SERIES_DARK = [
  '#56b4e9',
  '#e69f00',
  '#009e73',
  '#cc79a7',
  '#f0e442',
  '#0072b2',
  '#d55e00',
  '#bbbbbb',
] as const;

/** CSS custom properties `${prefix}0..7` on `selector`, light and (prefers-color-scheme) dark. */
export function paletteCss(selector: string, prefix: string): string {
  const vars = (colours: readonly string[]): string => colours.map((c, i) => `${prefix}${i}:${c}`).join(';');
  return (
    `${selector}{${vars(SERIES_LIGHT)}}\n` +
    `@media (prefers-color-scheme: dark){${selector}{${vars(SERIES_DARK)}}}\n`
  );
}
