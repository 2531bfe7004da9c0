/** The shell of a self-contained report page: no external resources, light and dark from the system. */
import { escapeHtml } from './format.js';

const CSS = `
:root{color-scheme:light dark;--bg:#ffffff;--fg:#1f2328;--muted:#57606a;--line:#d0d7de;--good:#1a7f37;--bad:#cf222e;--code:#f6f8fa}
@media (prefers-color-scheme: dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#8b949e;--line:#30363d;--good:#3fb950;--bad:#f85149;--code:#161b22}}
body{margin:0 auto;max-width:1000px;padding:24px;background:var(--bg);color:var(--fg);font:14px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid var(--line);padding-bottom:4px}
h3{font-size:15px;margin:18px 0 6px}.muted{color:var(--muted)}
table{border-collapse:collapse;margin:8px 0}th,td{border:1px solid var(--line);padding:4px 8px;text-align:left;vertical-align:top}
td.num{text-align:right;font-variant-numeric:tabular-nums}
.good{color:var(--good)}.bad{color:var(--bad)}
pre{background:var(--code);border:1px solid var(--line);border-radius:6px;padding:8px;overflow:auto;white-space:pre-wrap;word-break:break-word;font-size:12px}
code{font-size:12px}.chip{display:inline-block;border:1px solid var(--line);border-radius:12px;padding:1px 10px;margin-right:6px}
svg{max-width:100%;height:auto}
@media print{body{max-width:none;padding:0}pre{white-space:pre-wrap}}
`;

export function reportPage(title: string, body: string): string {
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    // A saved report must never fetch anything or run anything, wherever it is opened from.
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">`,
    `<title>${escapeHtml(title)}</title>`,
    `<style>${CSS}</style>`,
    '</head>',
    '<body>',
    body,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
