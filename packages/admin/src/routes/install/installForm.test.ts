import { initialInstallForm, validateStep } from './installForm';

const form = (overrides: Record<string, string>) => ({
  ...initialInstallForm({ hostname: 'parley.example' }),
  email: 'ada@example.com',
  username: 'ada',
  password: 'correct horse',
  confirm: 'correct horse',
  ...overrides,
});

describe('the install form’s account checks (the rules the server applies)', () => {
  it('takes what the server takes', () => {
    expect(validateStep('admin', form({ username: ' émile_1.x ' }))).toEqual({});
  });

  it.each([
    // The console's own looser pattern let the last two addresses through to the server.
    ['email', 'ada@localhost', 'Enter an email address like ada@example.com.'],
    ['email', 'ada..l@example.com', 'Enter an email address like ada@example.com.'],
    ['email', `${'a'.repeat(95)}@example.com`, 'Use at most 100 characters.'],
    ['username', 'ab', 'Use 3 to 30 characters.'],
    ['username', 'ada lovelace', 'Use letters, digits, “_” and “.” only.'],
  ])('refuses %s %p before Next: %s', (field, value, text) => {
    expect(validateStep('admin', form({ [field]: value }))).toMatchObject({ [field]: text });
  });

  it('counts a password’s characters as the server does (7 emoji are too few)', () => {
    const password = '😀'.repeat(7);
    expect(validateStep('admin', form({ password, confirm: password }))).toEqual({
      password: 'Use at least 8 characters.',
    });
  });
});
