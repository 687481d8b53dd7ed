/** Language tag validation for `<html lang>` (BCP 47) and hreflang (ISO 639-1 + ISO 3166-1). */

/** ISO 639-1 two-letter language codes (including the deprecated iw/in/ji still seen in the wild). */
const ISO_639_1 = new Set(
  (
    'aa ab ae af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce ch co cr cs cu cv cy da de dv dz ee el ' +
    ('en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie ig ii ik in ' +
      'io is it iu ') +
    ('iw ja ji jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn ' +
      'mo mr ms mt ') +
    ('my na nb nd ne ng nl nn no nr nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg sh ' +
      'si sk sl sm ') +
    'sn so sq sr ss st su sv sw ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu'
  ).split(' '),
);

/** ISO 3166-1 alpha-2 region codes. */
const ISO_3166_1 = new Set(
  (
    'ad ae af ag ai al am ao aq ar as at au aw ax az ba bb bd be bf bg bh bi bj bl bm bn bo bq br bs bt bv bw by bz ' +
    ('ca cc cd cf cg ch ci ck cl cm cn co cr cu cv cw cx cy cz de dj dk dm do dz ec ee eg eh er es et fi fj ' +
      'fk fm fo fr ') +
    ('ga gb gd ge gf gg gh gi gl gm gn gp gq gr gs gt gu gw gy hk hm hn hr ht hu id ie il im in io iq ir is ' +
      'it je jm jo ') +
    ('jp ke kg kh ki km kn kp kr kw ky kz la lb lc li lk lr ls lt lu lv ly ma mc md me mf mg mh mk ml mm mn ' +
      'mo mp mq mr ') +
    ('ms mt mu mv mw mx my mz na nc ne nf ng ni nl no np nr nu nz om pa pe pf pg ph pk pl pm pn pr ps pt pw ' +
      'py qa re ro ') +
    ('rs ru rw sa sb sc sd se sg sh si sj sk sl sm sn so sr ss st sv sx sy sz tc td tf tg th tj tk tl tm tn ' +
      'to tr tt tv ') +
    'tw tz ua ug um us uy uz va vc ve vg vi vn vu wf ws ye yt za zm zw'
  ).split(' '),
);

/** Region subtags BCP 47 allows beyond ISO 3166-1: the exceptionally reserved EU/UN and M.49 numbers. */
const EXTRA_BCP47_REGIONS = new Set(['eu', 'un', 'xk']);

/**
 * Well-formed BCP 47 (RFC 5646 §2.1) language tag, minus grandfathered forms:
 * language[-extlang][-script][-region](-variant)*(-extension)*[-privateuse], or private use alone.
 */
const BCP47_RE = new RegExp(
  String.raw`^(?:(?<language>[a-z]{2,3}(?:-[a-z]{3}){0,3}|[a-z]{4,8})(?:-(?<script>[a-z]{4}))?(?:-(?<re` +
    String.raw`gion>[a-z]{2}|\d{3}))?(?:-(?:[a-z\d]{5,8}|\d[a-z\d]{3}))*(?:-[\da-wy-z](?:-[a-z\d]{2,8})+)` +
    String.raw`*(?:-x(?:-[a-z\d]{1,8})+)?|x(?:-[a-z\d]{1,8})+)$`,
  'i',
);

/**
 * `<html lang>`: a well-formed BCP 47 tag whose two-letter language and region subtags exist.
 * Three-letter languages are accepted unchecked (ISO 639-2/3 has thousands of them).
 */
export function isValidLangTag(value: string): boolean {
  const match = BCP47_RE.exec(value.trim());
  if (!match) return false;
  const language = match.groups?.language?.toLowerCase();
  const region = match.groups?.region?.toLowerCase();
  if (language !== undefined) {
    const primary = language.split('-')[0];
    if (primary.length === 2 && !ISO_639_1.has(primary)) return false;
    if (primary.length > 3) return false;
  }
  if (
    region !== undefined &&
    /^[a-z]{2}$/.test(region) &&
    !ISO_3166_1.has(region) &&
    !EXTRA_BCP47_REGIONS.has(region)
  ) {
    return false;
  }
  return true;
}

/**
 * hreflang as Google reads it: x-default, or an ISO 639-1 language, optionally with a script
 * (zh-Hant) and/or an ISO 3166-1 alpha-2 region (en-GB; "en-UK" and "en_US" are invalid).
 */
export function isValidHreflang(value: string): boolean {
  const tag = value.trim().toLowerCase();
  if (tag === 'x-default') return true;
  const match = /^([a-z]{2})(?:-([a-z]{4}))?(?:-([a-z]{2}))?$/.exec(tag);
  if (!match) return false;
  if (!ISO_639_1.has(match[1])) return false;
  return match[3] === undefined || ISO_3166_1.has(match[3]);
}
