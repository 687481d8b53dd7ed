import { describe, expect, it } from 'vitest';
import { siteTitlePattern } from '../../../src/seo/fixes/site-title-pattern.js';

describe('siteTitlePattern', () => {
  it('finds the suffix most titles share, with its separator and brand', () => {
    const titles = [
      'Installation from Binaries | PostgreSQL Documentation',
      'String Functions and Operators | PostgreSQL Documentation',
      'CREATE TABLE | PostgreSQL Documentation',
      'Release Notes | PostgreSQL Documentation',
      'PostgreSQL Documentation',
    ];
    expect(siteTitlePattern(titles)).toEqual({
      position: 'suffix',
      affix: ' | PostgreSQL Documentation',
      brand: 'PostgreSQL Documentation',
      separator: ' | ',
      support: 4,
      total: 5,
    });
  });

  it.each([
    [' - ', ['Pricing - Acme', 'About us - Acme', 'Careers at a small company - Acme']],
    [' – ', ['Pricing – Acme', 'About us – Acme', 'Careers – Acme']],
    [' — ', ['Pricing — Acme', 'About us — Acme', 'Careers — Acme', 'Blog']],
    [' · ', ['Pricing · Acme', 'About us · Acme', 'Careers · Acme']],
    [' :: ', ['Pricing :: Acme', 'About us :: Acme', 'Careers :: Acme']],
    [' » ', ['Pricing » Acme', 'About us » Acme', 'Careers » Acme']],
  ])('separator %j', (separator, titles) => {
    expect(siteTitlePattern(titles)).toMatchObject({ position: 'suffix', affix: `${separator}Acme`, separator });
  });

  it('finds a prefix, "Brand: " included', () => {
    const titles = ['Acme: Pricing for teams', 'Acme: Our team', 'Acme: Contact us', 'Acme: Blog'];
    expect(siteTitlePattern(titles)).toMatchObject({ position: 'prefix', affix: 'Acme: ', brand: 'Acme' });
    expect(siteTitlePattern(['Acme | Pricing', 'Acme | Our team', 'Acme | Contact'])).toMatchObject({
      position: 'prefix',
      affix: 'Acme | ',
      separator: ' | ',
    });
  });

  it('keeps the whole affix when every titled page repeats it (PostgreSQL manual pages)', () => {
    const titles = [
      'PostgreSQL: Documentation: 16: 9.4. String Functions and Operators',
      'PostgreSQL: Documentation: 16: CREATE TABLE',
      'PostgreSQL: Documentation: 16: Chapter 5. Data Definition',
    ];
    expect(siteTitlePattern(titles)).toMatchObject({
      position: 'prefix',
      affix: 'PostgreSQL: Documentation: 16: ',
      brand: 'PostgreSQL: Documentation: 16',
    });
    const tagline = ['Oak tables | Acme - Handmade', 'Benches | Acme - Handmade', 'Care guide | Acme - Handmade'];
    expect(siteTitlePattern(tagline)?.affix).toBe(' | Acme - Handmade');
  });

  it('keeps only the brand when the segment before it varies by section', () => {
    const titles = [
      'Seasoning oak | Blog | Acme',
      'Why we use oils | Blog | Acme',
      'Oak tables | Shop | Acme',
      'Benches | Shop | Acme',
      'Contact | Acme',
    ];
    expect(siteTitlePattern(titles)).toMatchObject({ affix: ' | Acme', support: 5, total: 5 });
  });

  it('recognises a brand that the topics (and h1s) also name', () => {
    const titles = ['Acme Cloud pricing | Acme', 'Acme CLI reference | Acme', 'Getting started | Acme', 'Acme'];
    expect(siteTitlePattern(titles)).toMatchObject({ position: 'suffix', affix: ' | Acme', support: 3, total: 4 });
  });

  it('takes the majority separator when the brand is written two ways', () => {
    const titles = ['Tables | Acme', 'Chairs | Acme', 'Lamps | Acme', 'Rugs - Acme', 'Sale | Other'];
    expect(siteTitlePattern(titles)).toMatchObject({ affix: ' | Acme', support: 3, total: 5 });
  });

  it.each([
    ['no separators', ['Home', 'Oak dining tables', 'Contact us', 'Delivery and returns']],
    ['a coincidence on 2 of 5', ['Tables | Acme', 'Chairs | Acme', 'Lamps', 'Rugs and runners', 'Contact']],
    ['fewer than 3 titles', ['Tables | Acme', 'Chairs | Acme']],
    ['two brands tied', ['Tables | Acme', 'Chairs | Acme', 'Lamps - Zenith', 'Rugs - Zenith']],
    ['a suffix tied with a prefix', ['Acme: Tables', 'Acme: Chairs', 'Lamps | Zenith', 'Rugs | Zenith']],
    ['one template title repeated', ['Home | Acme', 'Home | Acme', 'Home | Acme', 'Blog', 'Shop', 'About']],
    ['hyphens inside words', ['Sign-in help', 'Roll-top desks', 'Made-to-order chairs']],
    ['a numeric tail', ['Page | 1', 'Archive | 2', 'Posts | 3']],
    [
      'an affix too long for a title',
      [
        'A | Acme Handmade Furniture Company of Devon Ltd',
        'B | Acme Handmade Furniture Company of Devon Ltd',
        'C | Acme Handmade Furniture Company of Devon Ltd',
      ],
    ],
  ])('null for %s', (_case, titles) => {
    expect(siteTitlePattern(titles)).toBeNull();
  });

  it('compares titles with their whitespace collapsed, and ignores empty ones', () => {
    const titles = ['Tables  |  Acme', ' Chairs |\tAcme ', 'Lamps | Acme', '', '   '];
    expect(siteTitlePattern(titles)).toMatchObject({ affix: ' | Acme', separator: ' | ', support: 3, total: 3 });
  });
});
