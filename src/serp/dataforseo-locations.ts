/**
 * DataForSEO `location_code` of each country: Google Ads geo-target criterion IDs, which for countries
 * are 2000 + the ISO 3166-1 numeric code (United States 2840, United Kingdom 2826, Germany 2276).
 * A table rather than `location_name`, whose English spelling ("United Kingdom", "Czechia") must match
 * DataForSEO's list exactly; a country missing here fails with a clear message instead of a wrong SERP.
 */
const ISO_NUMERIC: Record<string, number> = {
  ae: 784, ar: 32, at: 40, au: 36, ba: 70, bd: 50, be: 56, bg: 100, bo: 68, br: 76, by: 112, ca: 124,
  ch: 756, cl: 152, cn: 156, co: 170, cr: 188, cy: 196, cz: 203, de: 276, dk: 208, do: 214, dz: 12,
  ec: 218, ee: 233, eg: 818, es: 724, fi: 246, fr: 250, gb: 826, gr: 300, gt: 320, hk: 344, hr: 191,
  hu: 348, id: 360, ie: 372, il: 376, in: 356, is: 352, it: 380, jo: 400, jp: 392, ke: 404, kr: 410,
  kw: 414, kz: 398, lb: 422, lk: 144, lt: 440, lu: 442, lv: 428, ma: 504, mt: 470, mx: 484, my: 458,
  ng: 566, nl: 528, no: 578, nz: 554, pa: 591, pe: 604, ph: 608, pk: 586, pl: 616, pr: 630, pt: 620,
  py: 600, qa: 634, ro: 642, rs: 688, sa: 682, se: 752, sg: 702, si: 705, sk: 703, th: 764, tn: 788,
  tr: 792, tw: 158, ua: 804, us: 840, uy: 858, ve: 862, vn: 704, za: 710,
};

/** Google accepts gl=uk as an alias of gb; so do we. */
const ALIASES: Record<string, string> = { uk: 'gb' };

/** The DataForSEO location_code for a lower-case alpha-2 country, or null when not in the table. */
export function dataForSeoLocationCode(country: string): number | null {
  const code = ALIASES[country] ?? country;
  const numeric = Object.hasOwn(ISO_NUMERIC, code) ? ISO_NUMERIC[code] : undefined;
  return numeric === undefined ? null : 2000 + numeric;
}
