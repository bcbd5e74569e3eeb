// `npx tsx locales/check.ts [locale…]`: every problem of the catalogs (all, or these locales')
// against English, one line each; exits 1 when there is any. The catalogs test runs the same check.
import { allProblems, catalogLocales } from './compile';

const asked = process.argv.slice(2);
const problems = allProblems(asked.length ? asked : catalogLocales());
for (const problem of problems) console.log(problem);
console.log(problems.length ? `${problems.length} problems` : 'catalogs: no problems');
process.exit(problems.length ? 1 : 0);
