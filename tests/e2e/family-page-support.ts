import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { ZFamilyPage, ZMissingReport, ZSeasons, ZUploadLink, type TFamilyPage, type TUploadLink } from '../../src/contract';
import { E2E_PASSWORD } from './support';

/** Signs the API context in as staff (the system password), for issuing links; the family's page stays without a session. */
export async function signInStaff(request: APIRequestContext): Promise<void> {
  const response = await request.post('/api/auth/login', { data: { password: E2E_PASSWORD } });
  expect(response.ok(), await response.text()).toBe(true);
}

export async function currentSeason(request: APIRequestContext): Promise<{ id: string; name: string }> {
  const seasons = ZSeasons.parse(await (await request.get('/api/seasons')).json()).seasons;
  const current = seasons.find((season) => season.isCurrent) ?? seasons[0];
  if (!current) throw new Error('The demo data has no season');
  return { id: current.id, name: current.name };
}

/** POST /api/players/:playerId/upload-link: a new link for the player and season. */
export async function issueLink(request: APIRequestContext, playerId: string, season: string): Promise<TUploadLink> {
  const response = await request.post(`/api/players/${encodeURIComponent(playerId)}/upload-link`, { data: { season } });
  expect(response.status(), await response.text()).toBe(201);
  return ZUploadLink.parse(await response.json());
}

export const tokenOf = (url: string): string => {
  const token = /#token=([A-Za-z0-9_-]{43})$/.exec(url)?.[1];
  if (!token) throw new Error(`Not a family link: ${url}`);
  return token;
};

/** GET /api/family/:token, as the family page reads it. */
export async function familyPageOf(request: APIRequestContext, url: string): Promise<TFamilyPage> {
  const response = await request.get(`/api/family/${tokenOf(url)}`);
  expect(response.status(), await response.text()).toBe(200);
  return ZFamilyPage.parse(await response.json());
}

export type FamilyLink = { playerId: string; firstName: string; url: string; page: TFamilyPage };

/**
 * A demo player of the season whose family page matches `wanted` (a missing document, a refused one), with a
 * new link for it: the incomplete players are tried in the report's order, skipping `skip`.
 */
export async function familyLinkWhere(
  request: APIRequestContext,
  season: string,
  wanted: (page: TFamilyPage) => boolean,
  skip: readonly string[] = [],
): Promise<FamilyLink> {
  const response = await request.get(`/api/report/missing?season=${encodeURIComponent(season)}&status=incomplete&pageSize=60`);
  expect(response.ok(), await response.text()).toBe(true);
  const report = ZMissingReport.parse(await response.json());
  for (const player of report.players) {
    if (skip.includes(player.playerId)) continue;
    const link = await issueLink(request, player.playerId, season);
    const page = await familyPageOf(request, link.url);
    if (wanted(page)) return { playerId: player.playerId, firstName: player.firstName, url: link.url, page };
  }
  throw new Error('No demo player of the season has a family page like that');
}

/** The link with one character of its token changed: still shaped like a token, known to nobody. */
export function tamperedLink(url: string): string {
  const token = tokenOf(url);
  const last = token.at(-1) === 'A' ? 'B' : 'A';
  return `${url.slice(0, -token.length)}${token.slice(0, -1)}${last}`;
}

/** A marker in the photos' EXIF block: it must not reach the server. */
export const EXIF_MARKER = 'GPS 51.5007N 0.1246W';

/**
 * A real camera-sized JPEG (3000×4000, a page of text drawn by the browser), with an EXIF block carrying
 * EXIF_MARKER as a camera's location would be.
 */
export async function cameraPhoto(page: Page, title: string): Promise<Buffer> {
  const base64 = await page.evaluate((heading) => {
    const canvas = document.createElement('canvas');
    canvas.width = 3000;
    canvas.height = 4000;
    const context = canvas.getContext('2d');
    if (!context) throw new Error('No 2D canvas');
    context.fillStyle = '#f4f1ea';
    context.fillRect(0, 0, 3000, 4000);
    context.fillStyle = '#1f2937';
    context.font = 'bold 160px sans-serif';
    context.fillText(heading, 220, 420);
    context.font = '80px sans-serif';
    for (let line = 0; line < 28; line++) context.fillText('Lorem ipsum dolor sit amet, consectetur adipiscing elit.', 220, 700 + line * 110);
    return canvas.toDataURL('image/jpeg', 0.92).split(',')[1] ?? '';
  }, title);
  const jpeg = Buffer.from(base64, 'base64');
  const tiff = Buffer.concat([Buffer.from('Exif\u0000\u0000MM\u0000*\u0000\u0000\u0000\u0008\u0000\u0000\u0000\u0000\u0000\u0000', 'latin1'), Buffer.from(EXIF_MARKER, 'latin1')]);
  const length = Buffer.alloc(2);
  length.writeUInt16BE(tiff.length + 2);
  return Buffer.concat([jpeg.subarray(0, 2), Buffer.from([0xff, 0xe1]), length, tiff, jpeg.subarray(2)]);
}

/** The width and height of every JPEG in a body (a multipart upload), read from each one's frame header. */
export function jpegSizesIn(body: Buffer): Array<{ width: number; height: number }> {
  const sizes: Array<{ width: number; height: number }> = [];
  let start = body.indexOf(Buffer.from([0xff, 0xd8, 0xff]));
  while (start !== -1) {
    let at = start + 2;
    while (at + 9 < body.length && body[at] === 0xff) {
      const marker = body[at + 1] ?? 0;
      const length = body.readUInt16BE(at + 2);
      if (marker >= 0xc0 && marker <= 0xc3) {
        sizes.push({ height: body.readUInt16BE(at + 5), width: body.readUInt16BE(at + 7) });
        break;
      }
      at += 2 + length;
    }
    start = body.indexOf(Buffer.from([0xff, 0xd8, 0xff]), start + 3);
  }
  return sizes;
}

type SentFile = { name: string; type: string; base64: string };

declare global {
  interface Window {
    /** The files the page sent, kept by keepSentFiles. */
    __familySentFiles?: Array<Promise<SentFile>>;
  }
}

/**
 * Keeps, in the page, the files of each multipart body the page sends by XMLHttpRequest (DevTools does not
 * report a body's file parts): read them with sentFiles. Call before the page opens.
 */
export async function keepSentFiles(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const kept: Array<Promise<SentFile>> = [];
    window.__familySentFiles = kept;
    const send: unknown = Object.getOwnPropertyDescriptor(XMLHttpRequest.prototype, 'send')?.value;
    if (typeof send !== 'function') return;
    XMLHttpRequest.prototype.send = function keep(this: XMLHttpRequest, body?: Document | XMLHttpRequestBodyInit | null) {
      if (body instanceof FormData) {
        for (const value of body.getAll('file')) {
          if (!(value instanceof File)) continue;
          kept.push(
            value.arrayBuffer().then((buffer) => {
              let binary = '';
              for (const byte of new Uint8Array(buffer)) binary += String.fromCharCode(byte);
              return { name: value.name, type: value.type, base64: btoa(binary) };
            }),
          );
        }
      }
      Reflect.apply(send, this, [body]);
    };
  });
}

/** The files the page sent so far (keepSentFiles), in order. */
export async function sentFiles(page: Page): Promise<Array<{ name: string; type: string; bytes: Buffer }>> {
  const files = await page.evaluate(() => {
    return Promise.all(window.__familySentFiles ?? []);
  });
  return files.map((file) => ({ name: file.name, type: file.type, bytes: Buffer.from(file.base64, 'base64') }));
}
