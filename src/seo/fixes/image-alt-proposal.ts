import { collapseWhitespace, cutAtWord, phraseFromPath } from './markup-text.js';

/** File-name words that say nothing about the picture: camera prefixes, CMS size variants, generic nouns. */
const NOISE_WORDS = new Set([
  'img',
  'image',
  'images',
  'photo',
  'pic',
  'picture',
  'dsc',
  'dscn',
  'dcim',
  'pxl',
  'screenshot',
  'screen',
  'shot',
  'scaled',
  'min',
  'thumb',
  'thumbnail',
  'large',
  'medium',
  'small',
  'full',
  'resized',
  'copy',
  'final',
  'edit',
  'web',
  'hero',
  'banner',
  'bg',
  'background',
  'untitled',
  'file',
  'upload',
  'default',
  'placeholder',
  'new',
  'v',
  'x',
  'px',
]);

/**
 * Alt text suggested from an image's file name ("/uploads/red-oak-table-1024x768.jpg" -> "Red oak table");
 * null when the name carries no description (IMG_1234.jpg, hashes, "banner-1.png").
 */
export function altFromFileName(src: string): string | null {
  let path = src;
  try {
    path = new URL(src, 'http://host.invalid/').pathname;
  } catch {
    // keep the raw src
  }
  const phrase = phraseFromPath(path.replace(/(?:[-_]\d+x\d+|@\d+(?:\.\d+)?x)(?=\.[a-z0-9]+$|$)/i, ''));
  const words = phrase
    .split(' ')
    .filter(
      (word) =>
        word !== '' && !/^\d+$/.test(word) && !/^\d+(px|w|h|x)$/i.test(word) && !NOISE_WORDS.has(word.toLowerCase()),
    );
  if (words.length === 0 || words.join('').length < 3) return null;
  const joined = collapseWhitespace(words.join(' '));
  // Shouting file names (RED-OAK.JPG) read better in sentence case; mixed case (iPhone) is kept.
  const text = joined === joined.toUpperCase() ? joined.toLowerCase() : joined;
  return cutAtWord(text[0].toUpperCase() + text.slice(1), 100);
}
