// Type declarations for the two wink packages, which ship none.
declare module 'wink-porter2-stemmer' {
  const stem: (word: string) => string;
  export default stem;
}
declare module 'wink-lemmatizer' {
  const lemmatizer: { noun(w: string): string; verb(w: string): string; adjective(w: string): string };
  export default lemmatizer;
}
declare module 'stopword' {
  export const eng: string[];
}
