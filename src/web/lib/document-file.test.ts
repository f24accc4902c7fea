import { describe, expect, it } from 'vitest';
import { documentFileUrl, previewKindOf } from './document-file';

describe('previewKindOf', () => {
  it('shows PDFs in a frame and common images as an image', () => {
    expect(previewKindOf('application/pdf', 'x.bin')).toBe('pdf');
    expect(previewKindOf('image/jpeg', 'x')).toBe('image');
    expect(previewKindOf('image/jpg', 'x')).toBe('image');
    expect(previewKindOf('image/png; charset=binary', 'x')).toBe('image');
  });

  it('offers only a download for types a browser cannot show', () => {
    expect(previewKindOf('image/heic', 'photo.heic')).toBe('none');
    expect(previewKindOf('image/tiff', 'scan.pdf')).toBe('none');
  });

  it('looks at the file name only when the type is generic', () => {
    expect(previewKindOf('application/octet-stream', 'Scan.PDF')).toBe('pdf');
    expect(previewKindOf('', 'photo.jpg')).toBe('image');
    expect(previewKindOf('', 'notes.txt')).toBe('none');
  });
});

it('encodes the id into the file URL', () => {
  expect(documentFileUrl('a/b')).toBe('/api/documents/a%2Fb/file');
});
