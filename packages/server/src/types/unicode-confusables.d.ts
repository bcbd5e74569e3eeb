// The package ships its types under a misspelt name (index.ts.d); this is what index.js exports.
declare module 'unicode-confusables' {
  /** Each code point replaced by its prototype from Unicode's confusables.txt (UTS #39). */
  export function rectifyConfusion(input: string): string;
  export function isConfusing(input: string): boolean;
}
