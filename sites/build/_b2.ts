import { buildSite } from './index.ts';
import { formatProblems } from '../config/problems.ts';
const r = await buildSite({ source: process.argv[2]!, out: process.argv[3]!, base: '/acme/widgets', site: 'https://docs.example.com', context: { published: true, defaultBranch: true, customDomain: true, codeHost: { name: 'acme/widgets', url: 'https://github.com/acme/widgets' } } });
console.log(formatProblems(r.problems), r.durationMs, r.pages);
