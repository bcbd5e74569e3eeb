import { reportWeight } from './reportWeight';

const NOW = Date.parse('2026-11-24T12:00:00Z');
const ago = (days: number) => new Date(NOW - days * 86_400_000).toISOString();
const standing = { emailVerified: true, createdAt: ago(30), upheld: 0, dismissed: 0 };

describe('reportWeight', () => {
  it('counts an unconfirmed account for nothing, however old or trusted', () => {
    expect(reportWeight({ ...standing, emailVerified: false, upheld: 10 }, NOW)).toBe(0);
  });

  it('grows with the account: a quarter on the first day, half in the first week, then whole', () => {
    expect(reportWeight({ ...standing, createdAt: ago(0.5) }, NOW)).toBe(25);
    expect(reportWeight({ ...standing, createdAt: ago(3) }, NOW)).toBe(50);
    expect(reportWeight(standing, NOW)).toBe(100);
  });

  it('follows the record: a quarter more per upheld report up to double, half when mostly dismissed', () => {
    expect(reportWeight({ ...standing, upheld: 2 }, NOW)).toBe(150);
    expect(reportWeight({ ...standing, upheld: 40 }, NOW)).toBe(200);
    expect(reportWeight({ ...standing, upheld: 3, dismissed: 3 }, NOW)).toBe(100);
    expect(reportWeight({ ...standing, upheld: 1, dismissed: 2 }, NOW)).toBe(50);
    expect(reportWeight({ ...standing, createdAt: ago(0.5), upheld: 40 }, NOW)).toBe(50);
  });
});
