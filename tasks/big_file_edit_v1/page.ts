/**
 * The handbook page under edit: about 30 KB of HTML (well under read_file's 64 KiB, so one read
 * shows it whole), forty generated sections, and nine anchor sentences spread from the first
 * tenth to the footer, so a rewrite that drops or summarises any stretch of the page loses one.
 * Deterministic: the same code gives the same bytes.
 */

const TOPICS = [
  'Berth allocation',
  'Pilot boarding',
  'Tug assignment',
  'Mooring line inspection',
  'Gantry crane start-up',
  'Reefer container monitoring',
  'Dangerous goods declarations',
  'Customs holds',
  'Yard stacking rules',
  'Straddle carrier routing',
  'Gate appointment windows',
  'Truck turnaround targets',
  'Rail siding handover',
  'Empty container returns',
  'Ballast water reporting',
  'Bunkering permits',
  'Hot work permits',
  'Quay lighting checks',
  'Record keeping',
  'Fender damage reports',
  'Dredging notices',
  'Tide table publication',
  'Wind speed shutdowns',
  'Fog procedures',
  'Oil spill first response',
  'Fire pump testing',
  'Security zone access',
  'Visitor escorts',
  'Drone flight requests',
  'Shift handover',
  'Incident escalation',
  'Lashing crew scheduling',
  'Out-of-gauge cargo',
  'Lost and found cargo',
  'Weighbridge calibration',
  'Radio channel plan',
  'Power outage drills',
  'Contacts and desks',
  'Training records',
  'Handbook change process',
] as const;

const TEAMS = [
  'Marine Ops',
  'Terminal Control',
  'Quay Services',
  'Yard Planning',
  'Harbor Safety',
  'Gate Office',
];
const OPENERS = [
  'Requests arrive through the port community system and are confirmed by the duty planner within the hour.',
  'The duty supervisor signs the daily sheet before the first vessel movement of the morning shift.',
  'Every exception is logged with the vessel call number, the berth and the time it was noticed.',
  'Crews brief at the start of each shift and walk the affected quay section before work starts.',
  'Deviations from the plan are reported to Terminal Control on channel 14 as soon as they are known.',
  'Checks follow the laminated card kept in each control cabin; the card is reprinted when this page changes.',
  'Planners keep a two-hour buffer between conflicting jobs unless the harbor master waives it in writing.',
];
const MIDDLES = [
  'When two requests collide, the vessel with the earlier estimated arrival keeps its slot.',
  'Equipment that fails a check is tagged out and may not be used until a technician clears it.',
  'Night shifts use the same thresholds as day shifts; only the reporting contact changes.',
  'Contractors follow the same rules as our own crews and are escorted on the quay at all times.',
  'Figures in the monthly report are taken from the terminal operating system, not from paper logs.',
  'Photographs are attached to the ticket whenever damage or a spill is involved.',
  'Where local regulations are stricter than this page, the regulations apply.',
  'A second person confirms every reading that leads to a stop of operations.',
];
const CLOSERS = [
  'Questions go to the team mailbox; urgent ones to the duty supervisor.',
  'The procedure is reviewed after every incident it played a part in.',
  'Old versions of the forms are withdrawn from the cabins on the day a new one is issued.',
  'Targets are reviewed each quarter against the port authority figures.',
  'Anything not covered here is decided by the duty harbor master.',
];

export const OLD_TITLE = 'Harbor Ops Handbook';
export const NEW_TITLE = 'Harbor Operations Handbook';
export const OLD_ACCENT = '#0e7490';
export const NEW_ACCENT = '#c2410c';
export const NAV_AFTER = '<li><a href="/incidents">Incidents</a></li>';
export const NAV_NEW = '<li><a href="/runbooks">Runbooks</a></li>';
export const OLD_HREF = '/policies/retension';
export const NEW_HREF = '/policies/retention';
export const LINK_TEXT = 'retention policy';
export const ON_CALL_LABEL = 'On-call phone:';
export const OLD_PHONE = '+31 10 555 0142';
export const NEW_PHONE = '+31 10 555 0199';
/** Same number as the old on-call phone, on purpose: a global replace changes it too. */
export const DESK_LINE = `<li>Harbor master desk: ${OLD_PHONE}</li>`;
export const SECTION_COUNT = TOPICS.length;

/** Sections carrying an anchor sentence (1-based), spread through the page. */
const ANCHOR_SECTIONS = [3, 8, 13, 18, 23, 28, 33, 38];
const LINK_SECTION = 19;
const ON_CALL_SECTION = 31;
const DESK_SECTION = 38;

const pad = (n: number): string => String(n).padStart(2, '0');

function anchorSentence(n: number, topic: string): string {
  return `Audit note ${pad(n)}: the ${topic.toLowerCase()} procedure was last verified on pier ${((n * 7) % 12) + 1} during drill D-${100 + n * 13}.`;
}

const FOOTER_ANCHOR = 'Handbook build HB-4471, compiled from the quay operations wiki.';

/** The anchor sentences, in page order. */
export const ANCHORS: readonly string[] = [
  ...ANCHOR_SECTIONS.map((n) => anchorSentence(n, TOPICS[n - 1] ?? '')),
  FOOTER_ANCHOR,
];

function section(n: number, topic: string): string {
  const team = TEAMS[(n * 5) % TEAMS.length];
  const text = [
    `This procedure is owned by ${team}.`,
    OPENERS[n % OPENERS.length],
    MIDDLES[(n * 3) % MIDDLES.length],
    ...(n % 2 === 0 ? [MIDDLES[(n * 3 + 4) % MIDDLES.length]] : []),
    CLOSERS[(n * 2) % CLOSERS.length],
  ].join(' ');
  const facts = [
    `<li>Owner: ${team}</li>`,
    `<li>Review cycle: every ${4 + ((n * 3) % 9)} weeks</li>`,
    `<li>Checklist items: ${6 + ((n * 11) % 17)}</li>`,
    `<li>Form: OPS-${pad(n)}${(n * 37) % 10}</li>`,
    `<li>Last reviewed: 2025-${pad(1 + ((n * 5) % 12))}-${pad(1 + ((n * 13) % 28))}</li>`,
  ];
  if (n === ON_CALL_SECTION) facts.push(`<li>${ON_CALL_LABEL} ${OLD_PHONE}</li>`);
  if (n === DESK_SECTION) facts.push(DESK_LINE, '<li>Gate office desk: +31 10 555 0177</li>');
  const extra: string[] = [];
  if (n === LINK_SECTION)
    extra.push(
      `      <p>Keep records for the periods in the <a href="${OLD_HREF}">${LINK_TEXT}</a> before deleting anything.</p>`,
    );
  if (ANCHOR_SECTIONS.includes(n)) extra.push(`      <p class="note">${anchorSentence(n, topic)}</p>`);
  return [
    `    <section id="s${pad(n)}" class="chapter">`,
    `      <h2>${n}. ${topic}</h2>`,
    `      <p>${text}</p>`,
    ...extra,
    '      <ul class="facts">',
    ...facts.map((f) => `        ${f}`),
    '      </ul>',
    '    </section>',
  ].join('\n');
}

export const ORIGINAL_PAGE = `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <title>${OLD_TITLE}</title>
    <style>
      :root {
        --accent: ${OLD_ACCENT};
        --bg: #f8fafc;
        --fg: #0f172a;
        --muted: #64748b;
      }
      body { margin: 0; font-family: system-ui, sans-serif; background: var(--bg); color: var(--fg); }
      header { background: var(--accent); color: white; padding: 1rem 2rem; }
      #nav { display: flex; gap: 1.5rem; list-style: none; margin: 0; padding: 0; }
      #nav a { color: white; text-decoration: none; }
      main { max-width: 60rem; margin: 0 auto; padding: 1rem 2rem; }
      .chapter { border-bottom: 1px solid #e2e8f0; padding: 0.5rem 0 1rem; }
      .chapter h2 { color: var(--accent); font-size: 1.2rem; }
      .facts { color: var(--muted); font-size: 0.9rem; }
      .note { border-left: 3px solid var(--accent); padding-left: 0.75rem; font-style: italic; }
      footer { color: var(--muted); padding: 2rem; text-align: center; }
    </style>
  </head>
  <body>
    <header>
      <h1>Harbor operations</h1>
      <ul id="nav">
        <li><a href="/">Home</a></li>
        <li><a href="/berths">Berths</a></li>
        <li><a href="/cranes">Cranes</a></li>
        ${NAV_AFTER}
        <li><a href="/contacts">Contacts</a></li>
      </ul>
    </header>
    <main>
${TOPICS.map((t, i) => section(i + 1, t)).join('\n')}
    </main>
    <footer>
      <p>${FOOTER_ANCHOR}</p>
      <p>Questions about this page: handbook@harbor.example</p>
    </footer>
  </body>
</html>
`;

const replaceOnce = (text: string, from: string, to: string): string => {
  const at = text.indexOf(from);
  if (at < 0 || text.indexOf(from, at + 1) >= 0) throw new Error(`not exactly one ${from}`);
  return text.slice(0, at) + to + text.slice(at + from.length);
};

/** The page with the five requested edits and nothing else changed. */
export const EDITED_PAGE = [
  (p: string) => replaceOnce(p, `<title>${OLD_TITLE}</title>`, `<title>${NEW_TITLE}</title>`),
  (p: string) => replaceOnce(p, `--accent: ${OLD_ACCENT};`, `--accent: ${NEW_ACCENT};`),
  (p: string) => replaceOnce(p, NAV_AFTER, `${NAV_AFTER}\n        ${NAV_NEW}`),
  (p: string) => replaceOnce(p, `href="${OLD_HREF}"`, `href="${NEW_HREF}"`),
  (p: string) => replaceOnce(p, `${ON_CALL_LABEL} ${OLD_PHONE}`, `${ON_CALL_LABEL} ${NEW_PHONE}`),
].reduce((page, edit) => edit(page), ORIGINAL_PAGE);
