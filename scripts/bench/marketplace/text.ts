/** The words the marketplace bench's agents and conversation are made of, per category. */
import type { CATEGORIES } from '../../../server/marketplace/schemas.ts';

export type Category = (typeof CATEGORIES)[number];

export const VOCABULARY: Record<Category, { nouns: string[]; taglines: string[]; sentences: string[] }> = {
  Translation: {
    nouns: ['Lingua', 'Polyglot', 'Babel', 'Rosetta', 'Interpreter', 'Localizer', 'Glossary', 'Dialect'],
    taglines: [
      'Fast, faithful translation between 40 languages',
      'Legal and medical document translation with terminology checks',
      'Localization of apps, games and websites',
      'Subtitle translation and timing for video',
      'Technical manuals translated by domain-tuned models',
    ],
    sentences: [
      'Translates contracts, patents and court filings while keeping defined terms consistent.',
      'Localizes user interfaces, keeping placeholders, plural rules and string length limits intact.',
      'Offers human-reviewed translation for marketing copy where tone matters more than literal meaning.',
      'Detects the source language automatically and preserves formatting in DOCX, Markdown and HTML.',
      'Maintains a per-client glossary and translation memory so repeated phrases stay identical.',
      'Subtitles are translated, split and re-timed to reading speed for each target language.',
    ],
  },
  Data: {
    nouns: ['Ledger', 'Pipeline', 'Insight', 'Scraper', 'Analyst', 'Warehouse', 'Forecast', 'Tabular'],
    taglines: [
      'Clean, join and summarise messy spreadsheets',
      'Web scraping with structured JSON output',
      'Time-series forecasting for sales and inventory',
      'SQL reports and dashboards on demand',
      'Deduplication and entity resolution for CRM data',
    ],
    sentences: [
      'Cleans CSV and Excel exports, fixing dates, currencies and inconsistent category labels.',
      'Builds forecasts with seasonality and holiday effects and explains the confidence intervals.',
      'Writes and optimises SQL against PostgreSQL, BigQuery or Snowflake schemas you describe.',
      'Extracts tables from PDFs and scanned invoices into validated, typed records.',
      'Scrapes product catalogues politely, respecting robots rules and rate limits.',
      'Merges duplicate customer records using fuzzy matching on names, emails and addresses.',
    ],
  },
  Code: {
    nouns: ['Compiler', 'Refactor', 'Reviewer', 'Debugger', 'Linter', 'Scaffold', 'Migrator', 'Tester'],
    taglines: [
      'Code review for TypeScript, Rust and Go pull requests',
      'Unit and property tests written for your codebase',
      'Legacy migration from Python 2 and AngularJS',
      'Smart-contract audits for Solana programs',
      'Bug triage with minimal reproductions',
    ],
    sentences: [
      'Reviews pull requests for correctness, security issues and missing tests, with line comments.',
      'Writes property-based tests that find edge cases in parsers and serializers.',
      'Migrates callback-style code to async functions and removes dead dependencies.',
      'Audits Solana programs for missing signer checks, overflow and account confusion.',
      'Reproduces reported bugs in a minimal repository and proposes a patch with a regression test.',
      'Documents public APIs and keeps generated references in sync with the source.',
    ],
  },
  Design: {
    nouns: ['Palette', 'Sketch', 'Canvas', 'Pixel', 'Typeface', 'Wireframe', 'Brand', 'Vector'],
    taglines: [
      'Logos, palettes and brand guidelines',
      'Wireframes and clickable prototypes',
      'Accessible UI audits with concrete fixes',
      'Illustrations and icons in a consistent style',
      'Slide decks that explain, not decorate',
    ],
    sentences: [
      'Produces logo concepts with colour palettes and typography pairings for print and screen.',
      'Turns requirements into wireframes and then into a clickable prototype for user testing.',
      'Checks contrast, focus order and screen-reader labels against WCAG and suggests fixes.',
      'Draws icon sets on a shared grid so every glyph matches in weight and corner radius.',
      'Redesigns slide decks around one message per slide with charts that read at a glance.',
      'Exports assets in every size and format the app stores and social networks require.',
    ],
  },
};

export const ADJECTIVES = ['Swift', 'Careful', 'Bright', 'Quiet', 'Nimble', 'Precise', 'Clever', 'Steady', 'Bold', 'Patient'];

export const MESSAGE_LINES = [
  'Could you translate the attached contract into German by Friday?',
  'Yes. Is the glossary from the last order still current?',
  'Mostly; “Auftragnehmer” should now be “Dienstleister”.',
  'Noted. I will send a first draft of sections 1-4 tomorrow.',
  'Great, please keep the clause numbering exactly as in the source.',
  'Draft attached. Two terms need your decision, marked in yellow.',
  'Use the shorter variant for both, thanks.',
];
