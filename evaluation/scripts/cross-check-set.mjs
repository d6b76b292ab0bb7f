/**
 * `node scripts/cross-check-set.mjs eval-set/<dir> [count] [seed]`: a check set built differently
 * from the evaluation set's generator (tools/fixtures), to see whether the pipeline holds on documents
 * it was never tuned on. Cards, licences and passport pages are HTML (other fonts: Roboto, Open
 * Sans, FreeSans and FreeSerif where installed; labels above their values; tightly cropped
 * portraits), laid on CSS backgrounds under CSS 3D transforms in Debian's Chromium and taken by
 * a screenshot; selfies are the fixture faces framed by CSS. Its own names, MRZ composer and
 * typed-name variants. Classes: the four genuine kinds of the evaluation set, other_surname and
 * other_face. Writes the images and cases.json (an array) under the folder given; not part of
 * npm test (docs/pipeline.md, "twenty-fourth round"). Fonts: `apt-get install
 * fonts-roboto-unhinted fonts-open-sans fonts-freefont-ttf` (else Chromium falls back). Chromium
 * is Debian's, driven by the Playwright the e2e workspace installs (hoisted to the root).
 */
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
const [outDir, nArg, seedArg] = process.argv.slice(2);
const N = Number(nArg ?? 40);
let s = [...(seedArg ?? 'x')].reduce((a, c) => (a * 31 + c.charCodeAt(0)) >>> 0, 7);
const rnd = () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
const pick = (a) => a[Math.floor(rnd() * a.length)];
const range = (a, b) => a + rnd() * (b - a);
const int = (a, b) => Math.floor(range(a, b + 1));
const FACES = {
  collins: { file: '../tools/fixtures/faces/astronaut.png', crop: [120, 0, 210, 275], sw: 512, sh: 512 },
  hopper: { file: '../tools/fixtures/faces/grace_hopper.jpg', crop: [120, 30, 270, 360], sw: 512, sh: 600 },
};
const dataUrl = (f) => `data:image/${f.endsWith('png') ? 'png' : 'jpeg'};base64,${fs.readFileSync(f).toString('base64')}`;
for (const f of Object.values(FACES)) f.url = dataUrl(f.file);

const PEOPLE = [
  ['NOR', 'NO', 'Solveig Marit', 'Bjørnstad'],
  ['NOR', 'NO', 'Åse', 'Hjelmeland'],
  ['SWE', 'SE', 'Märta Ingeborg', 'Åkesson'],
  ['DEU', 'DE', 'Jürgen Friedrich', 'Weiß'],
  ['DEU', 'DE', 'Anna-Lena', 'Schröder'],
  ['FRA', 'FR', 'Hélène Marguerite', 'Lefèvre'],
  ['FRA', 'FR', 'Jean-Baptiste', 'Dupont-Moreau'],
  ['ESP', 'ES', 'María José', 'Fernández Ortega'],
  ['ESP', 'ES', 'Íñigo', 'Muñoz Peña'],
  ['ITA', 'IT', 'Giulia', "D'Angelo"],
  ['ITA', 'IT', 'Francesca Maria', 'Ricci'],
  ['NLD', 'NL', 'Maarten', 'van den Berg'],
  ['NLD', 'NL', 'Sanne Johanna', 'de Vries'],
  ['POL', 'PL', 'Małgorzata', 'Wiśniewska'],
  ['POL', 'PL', 'Łukasz Piotr', 'Zieliński'],
  ['DNK', 'DK', 'Søren', 'Kjærgaard'],
  ['FIN', 'FI', 'Aino Kaarina', 'Mäkelä'],
  ['CZE', 'CZ', 'Tereza', 'Dvořáková'],
  ['PRT', 'PT', 'João Pedro', 'Gonçalves Simões'],
  ['IRL', 'IE', 'Siobhán', "O'Sullivan"],
  ['AUT', 'AT', 'Lukas', 'Gruber'],
  ['BEL', 'BE', 'Amélie', 'Vanderlinden'],
  ['HUN', 'HU', 'Zsófia', 'Kovács'],
  ['GRC', 'GR', 'Eleni', 'Papadopoulou'],
  ['ROU', 'RO', 'Ioana Maria', 'Popescu'],
  ['HRV', 'HR', 'Ivana', 'Horvat'],
  ['LTU', 'LT', 'Rūta', 'Kazlauskienė'],
  ['GBR', 'GB', 'Olivia Rose', 'Pemberton'],
  ['ISL', 'IS', 'Guðrún', 'Þórsdóttir'],
  ['TUR', 'TR', 'Ayşe', 'Yılmaz'],
];
const OTHER_SURNAMES = ['Haddad', 'Lindqvist', 'Moreau', 'Kowalski', 'Brennan', 'Rossi', 'Jansen', 'Novak'];
const ICAO = { Ø: 'OE', Å: 'AA', Ä: 'AE', Ö: 'OE', Ü: 'UE', ß: 'SS', Æ: 'AE', Þ: 'TH', Ð: 'D', Ł: 'L', Đ: 'D', I: 'I' };
const translit = (t) =>
  [...t.toUpperCase()]
    .map((c) => ICAO[c] ?? c.normalize('NFD').replace(/[\u0300-\u036f]/g, ''))
    .join('')
    .replace(/'/g, '')
    .replace(/[^A-Z]+/g, '<');
const strip = (t) =>
  t
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ø/g, 'o')
    .replace(/Ø/g, 'O')
    .replace(/ł/g, 'l')
    .replace(/Ł/g, 'L')
    .replace(/ß/g, 'ss')
    .replace(/æ/g, 'ae')
    .replace(/þ/g, 'th')
    .replace(/ð/g, 'd')
    .replace(/ı/g, 'i');
const W = [7, 3, 1];
const cd = (str) => String([...str].reduce((a, c, i) => a + (c === '<' ? 0 : /\d/.test(c) ? +c : c.charCodeAt(0) - 55) * W[i % 3], 0) % 10);
const pad = (t, n) => (t + '<'.repeat(n)).slice(0, n);
const yymmdd = (d) => d.slice(2, 4) + d.slice(5, 7) + d.slice(8, 10);
function td3(p) {
  const l1 = pad(`P<${p.nat}${translit(p.surname)}<<${translit(p.given)}`, 44);
  const opt = pad('', 14);
  // The number's field is 9 characters: an 8-character number is padded with a filler.
  const num = p.number.padEnd(9, '<');
  const a = `${num}${cd(num)}${p.nat}${yymmdd(p.dob)}${cd(yymmdd(p.dob))}${p.sex}${yymmdd(p.exp)}${cd(yymmdd(p.exp))}${opt}${cd(opt)}`;
  const comp = num + cd(num) + yymmdd(p.dob) + cd(yymmdd(p.dob)) + yymmdd(p.exp) + cd(yymmdd(p.exp)) + opt + cd(opt);
  return [l1, a + cd(comp)];
}
function td1(p) {
  const num = p.number.padEnd(9, '<');
  const l1 = pad(`ID${p.nat}${num}${cd(num)}`, 30);
  const l2a = `${yymmdd(p.dob)}${cd(yymmdd(p.dob))}${p.sex}${yymmdd(p.exp)}${cd(yymmdd(p.exp))}${p.nat}`;
  const l2 = pad(l2a, 29);
  const comp = l1.slice(5, 30) + l2.slice(0, 7) + l2.slice(8, 15) + l2.slice(18, 29);
  return [l1, l2 + cd(comp), pad(`${translit(p.surname)}<<${translit(p.given)}`, 30)];
}
const esc = (t) => t.replace(/</g, '&lt;');
const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const FMT = [
  (d) => `${d.slice(8)} ${d.slice(5, 7)} ${d.slice(0, 4)}`,
  (d) => `${d.slice(8)}.${d.slice(5, 7)}.${d.slice(0, 4)}`,
  (d) => `${d.slice(8)} ${MONTHS[+d.slice(5, 7) - 1]} ${d.slice(0, 4)}`,
  (d) => `${d.slice(8)}/${d.slice(5, 7)}/${d.slice(0, 4)}`,
];
const LABELS = {
  en: { s: 'Surname', g: 'Given names', n: 'Nationality', b: 'Date of birth', x: 'Sex', e: 'Date of expiry', d: 'Document No.' },
  NO: {
    s: 'Etternavn / Surname',
    g: 'Fornavn / Given names',
    n: 'Nasjonalitet / Nationality',
    b: 'Fødselsdato / Date of birth',
    x: 'Kjønn / Sex',
    e: 'Gyldig til / Date of expiry',
    d: 'Dokumentnr. / Document no.',
  },
  DE: {
    s: 'Name / Surname',
    g: 'Vornamen / Given names',
    n: 'Staatsangehörigkeit / Nationality',
    b: 'Geburtsdatum / Date of birth',
    x: 'Geschlecht / Sex',
    e: 'Gültig bis / Date of expiry',
    d: 'Ausweisnummer / Card No.',
  },
  FR: {
    s: 'Nom / Surname',
    g: 'Prénoms / Given names',
    n: 'Nationalité / Nationality',
    b: 'Date de naiss. / Date of birth',
    x: 'Sexe / Sex',
    e: "Date d'expir. / Expiry date",
    d: 'N° du document / Document No.',
  },
  ES: {
    s: 'Apellidos / Surname',
    g: 'Nombre / Name',
    n: 'Nacionalidad / Nationality',
    b: 'Fecha de nacimiento / Date of birth',
    x: 'Sexo / Sex',
    e: 'Válido hasta / Valid until',
    d: 'Núm. soporte / Document No.',
  },
  IT: {
    s: 'Cognome / Surname',
    g: 'Nome / Name',
    n: 'Cittadinanza / Nationality',
    b: 'Data di nascita / Date of birth',
    x: 'Sesso / Sex',
    e: 'Scadenza / Expiry',
    d: 'N. documento / Document No.',
  },
  NL: {
    s: 'Naam / Surname',
    g: 'Voornamen / Given names',
    n: 'Nationaliteit / Nationality',
    b: 'Geboortedatum / Date of birth',
    x: 'Geslacht / Sex',
    e: 'Geldig tot / Date of expiry',
    d: 'Documentnummer / Document No.',
  },
};
/** The zone's font: OCR B as printed on documents, or another (`MRZ_FONT`) to see the zone reader on a font it was not made for. */
const MRZ_FONT = process.env.MRZ_FONT ?? 'OCR B';
const FONTS = ['Roboto', 'Open Sans', 'FreeSans', 'FreeSerif', 'Liberation Sans', 'DejaVu Sans'];
const css = `*{box-sizing:border-box;margin:0}body{overflow:hidden}
.card{position:absolute;border-radius:14px;overflow:hidden;box-shadow:0 6px 18px rgba(0,0,0,.45)}
.l{font-size:.72em;color:#3a4a5a;letter-spacing:.02em}.v{font-size:1.22em;font-weight:700;color:#111;margin-bottom:.35em;text-transform:none}
.mrz{font-family:'${MRZ_FONT}';position:absolute;left:5%;right:3%;bottom:5%;font-size:28px;letter-spacing:2.2px;white-space:pre;color:#111;line-height:1.25}`;
function faceImg(face, w, h, grey) {
  const f = FACES[face];
  const [cx, cy, cw, ch] = f.crop;
  const sx = w / cw,
    sy = h / ch;
  return `<div style="width:${w}px;height:${h}px;overflow:hidden;position:relative;border-radius:4px;${grey ? 'filter:grayscale(1)' : ''}"><img src="${f.url}" style="position:absolute;left:${-cx * sx}px;top:${-cy * sy}px;width:${f.sw * sx}px;height:${f.sh * sy}px"></div>`;
}
function fieldsHtml(p, lab, fmt, caps) {
  const v = (t) => (caps ? t.toUpperCase() : t);
  return `<div class=l>${lab.s}</div><div class=v>${v(p.surname)}</div><div class=l>${lab.g}</div><div class=v>${v(p.given)}</div>
  <div style="display:flex;gap:1.6em"><div><div class=l>${lab.x}</div><div class=v>${p.sex}</div></div><div><div class=l>${lab.n}</div><div class=v>${p.nat}</div></div><div><div class=l>${lab.b}</div><div class=v>${fmt(p.dob)}</div></div></div>
  <div style="display:flex;gap:1.6em"><div><div class=l>${lab.d}</div><div class=v>${p.number}</div></div><div><div class=l>${lab.e}</div><div class=v>${fmt(p.exp)}</div></div></div>`;
}
const tint = () =>
  pick([
    'linear-gradient(135deg,#e8f0e6,#d8e6f0 60%,#efe6d8)',
    'linear-gradient(160deg,#f3e7ee,#e4ecf6)',
    'linear-gradient(120deg,#eef2e0,#f6efe4)',
    'radial-gradient(circle at 70% 30%,#fff,#dde7ef)',
  ]);
function docHtml(kind, p, side) {
  const lab = rnd() < 0.3 ? LABELS.en : (LABELS[p.c2] ?? LABELS.en);
  const fmt = pick(FMT);
  const caps = rnd() < 0.7;
  const font = pick(FONTS);
  const country =
    {
      NO: 'KONGERIKET NORGE',
      SE: 'KONUNGARIKET SVERIGE',
      DE: 'BUNDESREPUBLIK DEUTSCHLAND',
      FR: 'RÉPUBLIQUE FRANÇAISE',
      ES: 'REINO DE ESPAÑA',
      IT: 'REPUBBLICA ITALIANA',
      NL: 'KONINKRIJK DER NEDERLANDEN',
      PL: 'RZECZPOSPOLITA POLSKA',
    }[p.c2] ?? p.countryName.toUpperCase();
  const photoLeft = rnd() < 0.7;
  if (kind === 'passport') {
    const [a, b] = td3(p);
    return {
      w: 1250,
      h: 880,
      html: `<div style="width:1250px;height:880px;background:${tint()};font-family:'${font}';font-size:31px;padding:40px 50px;position:relative">
      <div style="font-size:24px;font-weight:700;letter-spacing:.05em">${country} &nbsp; · &nbsp; PASSPORT</div>
      <div style="display:flex;gap:40px;margin-top:26px;flex-direction:${photoLeft ? 'row' : 'row-reverse'}">${faceImg(p.face, 300, 390, p.grey)}<div style="flex:1">${fieldsHtml(p, lab, fmt, caps)}</div></div>
      <div class=mrz style="font-size:30px;letter-spacing:3.5px">${esc(a)}\n${esc(b)}</div></div>`,
    };
  }
  if (kind === 'id_back') {
    const [a, b, c] = td1(p);
    return {
      w: 856,
      h: 540,
      html: `<div style="width:856px;height:540px;background:${tint()};font-family:'${font}';font-size:18px;padding:30px;position:relative">
      <div class=l>Address / Adresse</div><div class=v style="font-size:20px">${int(1, 99)} ${pick(['Storgata', 'Hauptstraße', 'Rue de la Paix', 'Calle Mayor', 'Via Roma'])}</div>
      <div class=mrz style="font-size:30px;letter-spacing:4px">${esc(a)}\n${esc(b)}\n${esc(c)}</div></div>`,
    };
  }
  if (kind === 'licence') {
    const f = fmt;
    const v = (t) => (caps ? t.toUpperCase() : t);
    return {
      w: 856,
      h: 540,
      html: `<div style="width:856px;height:540px;background:linear-gradient(135deg,#f7d9e3,#e9e4f6);font-family:'${font}';font-size:22px;padding:26px 34px;position:relative">
      <div style="font-size:22px;font-weight:700">DRIVING LICENCE <span style="float:right;border:2px solid #225;border-radius:50%;padding:4px 10px">${p.c2}</span></div>
      <div style="display:flex;gap:30px;margin-top:18px">${faceImg(p.face, 220, 290, p.grey)}<div style="line-height:1.55;font-size:24px">
      <div>1. <b>${v(p.surname)}</b></div><div>2. <b>${v(p.given)}</b></div><div>3. ${f(p.dob)} ${pick(['OSLO', 'LYON', 'MADRID', 'KRAKÓW'])}</div>
      <div>4a. ${f(p.iss)} &nbsp; 4c. ${pick(['Statens vegvesen', 'Préfecture', 'DGT', 'Starosta'])}</div><div>4b. ${f(p.exp)}</div><div>5. ${p.number}</div><div>9. AM/B1/B</div></div></div></div>`,
    };
  }
  // id card front
  return {
    w: 856,
    h: 540,
    html: `<div style="width:856px;height:540px;background:${tint()};font-family:'${font}';font-size:23px;padding:24px 30px;position:relative">
    <div style="font-size:17px;font-weight:700;letter-spacing:.04em">${country}<br><span style="font-weight:400">IDENTITY CARD</span></div>
    <div style="display:flex;gap:28px;margin-top:16px;flex-direction:${photoLeft ? 'row' : 'row-reverse'}">${faceImg(p.face, 230, 300, p.grey)}<div style="flex:1">${fieldsHtml(p, lab, fmt, caps)}</div></div></div>`,
  };
}
const FRAMES = [
  [640, 480],
  [1280, 720],
  [1280, 960],
  [1600, 1200],
  [1920, 1080],
  [2592, 1944],
  [3264, 2448],
  [4032, 3024],
];
function scene(doc, fw, fh) {
  const fill = range(0.5, 0.9);
  const scale = Math.min((fw * fill) / doc.w, (fh * fill) / doc.h);
  const rz = range(-10, 10),
    rx = range(-12, 12),
    ry = range(-12, 12);
  const bg = pick([
    'repeating-linear-gradient(92deg,#8a5a33 0 14px,#7b4f2c 14px 31px,#94653c 31px 40px)',
    'linear-gradient(#d9d4cc,#bfb8ad)',
    'repeating-linear-gradient(45deg,#5a6b7d 0 3px,#53647a 3px 6px)',
    '#2e2e2e',
  ]);
  const light = range(0.8, 1.1);
  const grad = range(0, 0.3);
  return `<html><head><style>${css}</style></head><body style="width:${fw}px;height:${fh}px;background:${bg};filter:brightness(${light})">
  <div style="position:absolute;left:50%;top:50%;width:${doc.w}px;height:${doc.h}px;transform:translate(-50%,-50%) translate(${range(-0.08, 0.08) * fw}px,${range(-0.06, 0.06) * fh}px) perspective(${doc.w * 2.2}px) rotateZ(${rz}deg) rotateX(${rx}deg) rotateY(${ry}deg) scale(${scale})" class=card>${doc.html}</div>
  <div style="position:absolute;inset:0;background:linear-gradient(${int(0, 360)}deg,rgba(0,0,0,${grad}),rgba(0,0,0,0) 70%)"></div>
  <svg style="position:absolute;inset:0;opacity:${range(0.04, 0.12)};mix-blend-mode:overlay" width="100%" height="100%"><filter id=n><feTurbulence type=fractalNoise baseFrequency=0.9 seed=${int(1, 999)}/></filter><rect width="100%" height="100%" filter="url(#n)"/></svg></body></html>`;
}
function selfieScene(face, fw, fh) {
  const f = FACES[face];
  const h = fh * range(1.0, 1.4);
  const w = (h * f.sw) / f.sh;
  const poor = rnd() < 0.3;
  return `<html><body style="margin:0;width:${fw}px;height:${fh}px;overflow:hidden;background:linear-gradient(#cfc8bd,#8d877d)">
  <img src="${f.url}" style="position:absolute;left:${(fw - w) / 2 + range(-0.1, 0.1) * fw}px;top:${range(-0.12, 0.05) * fh}px;width:${w}px;height:${h}px;transform:rotate(${range(-6, 6)}deg) scaleX(${rnd() < 0.5 ? -1 : 1});filter:brightness(${poor ? range(0.55, 0.75) : range(0.9, 1.1)}) ${poor ? 'sepia(.25)' : ''}">
  <svg style="position:absolute;inset:0;opacity:${poor ? 0.18 : 0.06};mix-blend-mode:overlay" width="100%" height="100%"><filter id=n><feTurbulence type=fractalNoise baseFrequency=0.95 seed=${int(1, 999)}/></filter><rect width="100%" height="100%" filter="url(#n)"/></svg></body></html>`;
}
const date = (y0, y1) => `${int(y0, y1)}-${String(int(1, 12)).padStart(2, '0')}-${String(int(1, 28)).padStart(2, '0')}`;
function typedVariant(p) {
  const r = rnd();
  if (r < 0.3) return `${p.given} ${p.surname}`;
  if (r < 0.5) return strip(`${p.given} ${p.surname}`);
  if (r < 0.65) return `${p.given.split(/[ ]/)[0]} ${p.surname}`.toLowerCase();
  if (r < 0.8) return `${p.surname}, ${p.given}`;
  return `${p.given} ${p.surname}`.toUpperCase();
}
fs.mkdirSync(outDir, { recursive: true });
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
const page = await browser.newPage();
const cases = [];
for (let i = 0; i < N; i++) {
  const [nat, c2, given, surname] = pick(PEOPLE);
  const cls = pick([
    'passport',
    'passport',
    'id_td1',
    'id_printed',
    'licence',
    'id_printed',
    'id_td1',
    'licence',
    'other_surname',
    'other_face',
  ]);
  const kind = cls === 'other_surname' || cls === 'other_face' ? pick(['passport', 'id_td1', 'id_printed', 'licence']) : cls;
  const face = rnd() < 0.5 ? 'collins' : 'hopper';
  const p = {
    nat,
    c2,
    given,
    surname,
    countryName: c2,
    face,
    grey: rnd() < 0.3,
    sex: face === 'collins' || face === 'hopper' ? 'F' : 'M',
    dob: date(1955, 2003),
    iss: date(2019, 2024),
    exp: date(2028, 2035),
    number: pick(['', 'X', 'P', 'C']) + String(int(10000000, 99999999)).slice(0, 8),
  };
  const id = `x${String(i).padStart(3, '0')}`;
  const shoot = async (doc, name) => {
    const [fw, fh] = pick(FRAMES);
    await page.setViewportSize({ width: fw, height: fh });
    await page.setContent(scene(doc, fw, fh));
    await page.evaluate(() => document.fonts.ready);
    fs.writeFileSync(path.join(outDir, `${id}.${name}.jpg`), await page.screenshot({ type: 'jpeg', quality: int(60, 92) }));
  };
  const docKind = kind === 'id_td1' || kind === 'id_printed' ? 'id_front' : kind;
  await shoot(docHtml(docKind, p), 'front');
  if (kind === 'id_td1') await shoot(docHtml('id_back', p), 'back');
  const [sw, sh] = pick([
    [480, 640],
    [640, 480],
    [1280, 720],
    [720, 1280],
    [1920, 1080],
  ]);
  await page.setViewportSize({ width: sw, height: sh });
  await page.setContent(selfieScene(cls === 'other_face' ? (face === 'collins' ? 'hopper' : 'collins') : face, sw, sh));
  fs.writeFileSync(path.join(outDir, `${id}.selfie.jpg`), await page.screenshot({ type: 'jpeg', quality: int(70, 92) }));
  // Another family name: never one part of the person's own double surname (Moreau for
  // Dupont-Moreau is the person's name shortened, as name-match.ts accepts: twenty-fifth/x047).
  const ownParts = p.surname.toUpperCase().split(/[- ]/);
  const others = OTHER_SURNAMES.filter((o) => !ownParts.includes(o.toUpperCase()));
  const typed = cls === 'other_surname' ? `${p.given} ${pick(others)}` : typedVariant(p);
  const documentType =
    rnd() < 0.3 ? null : { passport: 'passport', id_td1: 'national_id', id_printed: 'national_id', licence: 'drivers_license' }[kind];
  cases.push({
    id,
    cls: cls.startsWith('other')
      ? cls
      : {
          passport: 'genuine_passport_td3',
          id_td1: 'genuine_id_card_td1',
          id_printed: 'genuine_id_card_printed',
          licence: 'genuine_driving_licence',
        }[kind],
    kind,
    typedName: typed,
    documentType,
    country: rnd() < 0.5 ? c2 : null,
    back: kind === 'id_td1',
    truth: { given, surname, dob: p.dob, exp: p.exp, number: p.number },
  });
}
await browser.close();
fs.writeFileSync(path.join(outDir, 'cases.json'), JSON.stringify(cases, null, 1));
console.log(cases.length, 'cases');
